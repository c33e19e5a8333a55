package dev.weft.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Headless Chromium driven through the DevTools protocol over the JDK's WebSocket client: one page,
 * navigation, script evaluation, real mouse and key input, screenshots, and every JavaScript error
 * (uncaught exceptions, {@code console.error}, failed loads and CSP violations from the log).
 *
 * <p>The browser is {@code /usr/bin/chromium} unless the system property {@code weft.chromium}
 * names another. Tests that need it fail when it is missing, unless {@code
 * -Dweft.browser.tests=false}.
 */
final class HeadlessChromium implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final Path profile;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final List<String> errors = new ArrayList<>();
  private volatile CompletableFuture<Void> loaded = new CompletableFuture<>();

  /** The browser binary tests use. */
  static Path binary() {
    return Paths.get(System.getProperty("weft.chromium", "/usr/bin/chromium"));
  }

  /** False only when the build says so with {@code -Dweft.browser.tests=false}. */
  static boolean required() {
    return !"false".equals(System.getProperty("weft.browser.tests"));
  }

  /** Starts a headless browser with a fresh profile and opens its first page. */
  static HeadlessChromium start() throws IOException, InterruptedException {
    Path bin = binary();
    if (!Files.isExecutable(bin)) {
      throw new IllegalStateException(
          bin
              + " not found: the report's browser tests need Chromium"
              + " (apt-get install -y chromium); run with -Dweft.browser.tests=false to skip them");
    }
    return new HeadlessChromium(bin);
  }

  private HeadlessChromium(Path bin) throws IOException, InterruptedException {
    profile = Files.createTempDirectory("weft-chromium-");
    List<String> cmd =
        List.of(
            bin.toString(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--user-data-dir=" + profile,
            "--remote-debugging-port=0",
            "--remote-allow-origins=*",
            "--window-size=1400,1000",
            "about:blank");
    process =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(profile.resolve("chromium.log").toFile())
            .start();
    try {
      int port = devToolsPort();
      socket = connect(pageSocketUrl(port));
      send("Page.enable");
      send("Runtime.enable");
      send("Log.enable");
    } catch (IOException | RuntimeException | InterruptedException e) {
      close();
      throw e;
    }
  }

  /** Chromium writes the port it chose into the profile once it listens. */
  private int devToolsPort() throws IOException, InterruptedException {
    Path file = profile.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(file)) {
        List<String> lines = Files.readAllLines(file);
        if (!lines.isEmpty() && !lines.get(0).isBlank()) {
          return Integer.parseInt(lines.get(0).trim());
        }
      }
      if (!process.isAlive()) {
        throw new IOException("Chromium exited with " + process.exitValue() + ": " + log());
      }
      Thread.sleep(50);
    }
    throw new IOException(
        "Chromium did not open its DevTools port within " + TIMEOUT + ": " + log());
  }

  private String log() {
    try {
      String s = Files.readString(profile.resolve("chromium.log"));
      return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
    } catch (IOException e) {
      return "(no log)";
    }
  }

  private static String pageSocketUrl(int port) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
              HttpResponse.BodyHandlers.ofString());
      for (JsonNode target : JSON.readTree(r.body())) {
        if ("page".equals(target.path("type").asText())) {
          return target.path("webSocketDebuggerUrl").asText();
        }
      }
      Thread.sleep(50);
    }
    throw new IOException("Chromium opened no page");
  }

  private WebSocket connect(String url) {
    return HttpClient.newHttpClient()
        .newWebSocketBuilder()
        .connectTimeout(TIMEOUT)
        .buildAsync(URI.create(url), new Listener())
        .join();
  }

  /** Receives protocol messages: answers complete their request; events are recorded. */
  private final class Listener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String text = partial.toString();
        partial.setLength(0);
        try {
          dispatch(JSON.readTree(text));
        } catch (IOException e) {
          synchronized (errors) {
            errors.add("unreadable DevTools message: " + e.getMessage());
          }
        }
      }
      ws.request(1);
      return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
      pending.values().forEach(f -> f.completeExceptionally(error));
    }
  }

  private void dispatch(JsonNode msg) {
    if (msg.has("id")) {
      CompletableFuture<JsonNode> f = pending.remove(msg.get("id").asInt());
      if (f != null) {
        if (msg.has("error")) {
          f.completeExceptionally(new IllegalStateException("DevTools error: " + msg.get("error")));
        } else {
          f.complete(msg.path("result"));
        }
      }
      return;
    }
    String method = msg.path("method").asText();
    JsonNode p = msg.path("params");
    switch (method) {
      case "Page.loadEventFired":
        loaded.complete(null);
        break;
      case "Runtime.exceptionThrown":
        {
          JsonNode d = p.path("exceptionDetails");
          String text = d.path("exception").path("description").asText(d.path("text").asText());
          addError("uncaught exception: " + text + " at line " + d.path("lineNumber").asInt());
          break;
        }
      case "Runtime.consoleAPICalled":
        {
          String type = p.path("type").asText();
          if (type.equals("error") || type.equals("assert")) {
            StringBuilder b = new StringBuilder("console." + type + ":");
            for (JsonNode arg : p.path("args")) {
              b.append(' ').append(arg.path("value").asText(arg.path("description").asText()));
            }
            addError(b.toString());
          }
          break;
        }
      case "Log.entryAdded":
        {
          JsonNode e = p.path("entry");
          if ("error".equals(e.path("level").asText())) {
            addError("log: " + e.path("text").asText() + " " + e.path("url").asText());
          }
          break;
        }
      default:
        break;
    }
  }

  private void addError(String s) {
    synchronized (errors) {
      errors.add(s);
    }
  }

  /** Every JavaScript error so far. */
  List<String> errors() {
    synchronized (errors) {
      return List.copyOf(errors);
    }
  }

  JsonNode send(String method) {
    return send(method, JSON.createObjectNode());
  }

  /** Sends a protocol command and waits for its result. */
  JsonNode send(String method, ObjectNode params) {
    int id = ids.incrementAndGet();
    ObjectNode msg = JSON.createObjectNode();
    msg.put("id", id);
    msg.put("method", method);
    msg.set("params", params);
    CompletableFuture<JsonNode> f = new CompletableFuture<>();
    pending.put(id, f);
    socket.sendText(msg.toString(), true).join();
    try {
      return f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(method + " failed: " + e, e);
    }
  }

  /**
   * Opens a file and waits for its load event and for the report to say it has rendered ({@code
   * #app[data-ready="1"]}). Returns the wall time from the navigation request to that point.
   */
  Duration open(Path file) throws InterruptedException {
    loaded = new CompletableFuture<>();
    long start = System.nanoTime();
    ObjectNode p = JSON.createObjectNode();
    p.put("url", file.toUri().toString());
    send("Page.navigate", p);
    try {
      loaded.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("page did not load: " + file + " " + errors(), e);
    }
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!"1"
        .equals(
            eval("document.getElementById('app') && document.getElementById('app').dataset.ready")
                .asText())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("report did not render: " + errors());
      }
      Thread.sleep(20);
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }

  /** Evaluates an expression in the page and returns its value (promises are awaited). */
  JsonNode eval(String expression) {
    ObjectNode p = JSON.createObjectNode();
    p.put("expression", expression);
    p.put("returnByValue", true);
    p.put("awaitPromise", true);
    JsonNode r = send("Runtime.evaluate", p);
    if (r.has("exceptionDetails")) {
      throw new IllegalStateException(
          "evaluation failed: "
              + expression
              + ": "
              + r.path("exceptionDetails").path("exception").path("description").asText());
    }
    return r.path("result").path("value");
  }

  /**
   * Scrolls the first element matching a CSS selector into view and returns its box in viewport
   * coordinates: {@code {x, y, width, height}}.
   */
  JsonNode box(String selector) {
    JsonNode rect =
        eval(
            "(() => { const e = document.querySelector("
                + JSON.valueToTree(selector)
                + "); if (!e) return null; e.scrollIntoView({block: 'center'});"
                + " const r = e.getBoundingClientRect();"
                + " return {x: r.left, y: r.top, width: r.width, height: r.height}; })()");
    if (rect.isNull() || rect.isMissingNode()) {
      throw new IllegalStateException("no element matches " + selector);
    }
    return rect;
  }

  /** Clicks the first element matching a CSS selector (near its left, vertically centred). */
  void click(String selector) {
    JsonNode b = box(selector);
    double x = b.get("x").asDouble() + Math.min(b.get("width").asDouble() / 2, 40);
    double y = b.get("y").asDouble() + b.get("height").asDouble() / 2;
    mouse("mouseMoved", x, y, "none", 0);
    mouse("mousePressed", x, y, "left", 1);
    mouse("mouseReleased", x, y, "left", 1);
  }

  /** Drags with the left button from one viewport point to another, in a few steps. */
  void drag(double x0, double y0, double x1, double y1) {
    mouse("mouseMoved", x0, y0, "none", 0);
    mouse("mousePressed", x0, y0, "left", 1);
    for (int i = 1; i <= 4; i++) {
      mouse("mouseMoved", x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * i / 4, "left", 0);
    }
    mouse("mouseReleased", x1, y1, "left", 1);
  }

  /** Turns the mouse wheel at a viewport point (negative {@code deltaY}: away from the user). */
  void wheel(double x, double y, double deltaY) {
    wheel(x, y, deltaY, 0);
  }

  /** Ctrl held, for {@link #wheel(double, double, double, int)}. */
  static final int CTRL = 2;

  /**
   * As {@link #wheel(double, double, double)} with modifier keys held (a sum of {@link #CTRL}…).
   */
  void wheel(double x, double y, double deltaY, int modifiers) {
    ObjectNode p = JSON.createObjectNode();
    p.put("modifiers", modifiers);
    p.put("type", "mouseWheel");
    p.put("x", x);
    p.put("y", y);
    p.put("deltaX", 0);
    p.put("deltaY", deltaY);
    send("Input.dispatchMouseEvent", p);
  }

  private void mouse(String type, double x, double y, String button, int clicks) {
    ObjectNode p = JSON.createObjectNode();
    p.put("type", type);
    p.put("x", x);
    p.put("y", y);
    p.put("button", button);
    if (button.equals("left") && type.equals("mouseMoved")) {
      p.put("buttons", 1);
    }
    p.put("clickCount", clicks);
    send("Input.dispatchMouseEvent", p);
  }

  /**
   * Presses a key in the focused element: {@code key} is a DOM key value ("ArrowRight", "+", "0"),
   * {@code code} its physical key and {@code keyCode} the Windows virtual key code.
   */
  void key(String key, String code, int keyCode) {
    boolean printable = key.length() == 1;
    ObjectNode down = JSON.createObjectNode();
    down.put("type", printable ? "keyDown" : "rawKeyDown");
    down.put("key", key);
    down.put("code", code);
    down.put("windowsVirtualKeyCode", keyCode);
    if (printable) {
      down.put("text", key);
    }
    send("Input.dispatchKeyEvent", down);
    ObjectNode up = JSON.createObjectNode();
    up.put("type", "keyUp");
    up.put("key", key);
    up.put("code", code);
    up.put("windowsVirtualKeyCode", keyCode);
    send("Input.dispatchKeyEvent", up);
  }

  /** A PNG of the whole page, laid out at the window's width. */
  byte[] screenshot() {
    JsonNode size =
        eval(
            "({w: document.documentElement.clientWidth, h:"
                + " document.documentElement.scrollHeight})");
    ObjectNode metrics = JSON.createObjectNode();
    metrics.put("width", size.get("w").asInt());
    metrics.put("height", size.get("h").asInt());
    metrics.put("deviceScaleFactor", 1);
    metrics.put("mobile", false);
    send("Emulation.setDeviceMetricsOverride", metrics);
    try {
      ObjectNode p = JSON.createObjectNode();
      p.put("format", "png");
      return Base64.getDecoder().decode(send("Page.captureScreenshot", p).path("data").asText());
    } finally {
      send("Emulation.clearDeviceMetricsOverride");
    }
  }

  @Override
  public void close() {
    if (socket != null) {
      socket.abort();
    }
    List<ProcessHandle> children = process.descendants().toList();
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    children.forEach(ProcessHandle::destroy);
    deleteTree(profile);
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // Files Chromium was still writing while it exited: the OS cleans its temp dir.
    }
  }
}
