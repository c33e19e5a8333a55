package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.config.AgentOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The script of {@code weft completion}, run by bash as it completes a word: every option whose
 * values are a fixed set offers them, and the agent options and demo scenarios come from the jars
 * weft would use.
 */
class CompletionScriptTest {
  @TempDir static Path tmp;
  private static Map<String, List<String>> offered;

  /** Each command line, up to the word being completed, and the words bash must offer for it. */
  private static final Map<String, List<String>> EXPECTED = new LinkedHashMap<>();

  static {
    EXPECTED.put("weft ver", List.of("verify"));
    EXPECTED.put(
        "weft check a.json --budget lock_", List.of("lock_contention", "lock_api_contention"));
    EXPECTED.put("weft trend store --property barrier_", List.of("barrier_wait"));
    EXPECTED.put("weft export t --kinds ha", List.of("handoff"));
    EXPECTED.put("weft export t --format ''", List.of("chrome", "otf2", "parquet"));
    EXPECTED.put("weft analyze t --format ''", List.of("text", "json", "html"));
    EXPECTED.put("weft diff a b --format ''", List.of("text", "json", "html"));
    EXPECTED.put("weft summary t --format ''", List.of("text", "json"));
    EXPECTED.put("weft query store --format ''", List.of("table", "csv", "json"));
    EXPECTED.put("weft query store --engine ''", List.of("duckdb", "spark"));
    EXPECTED.put("weft print t --kind lock_r", List.of("lock_request", "lock_released"));
    EXPECTED.put("weft run --opt ta", List.of("tasks="));
    EXPECTED.put("weft attach 123 --opt con", List.of("constructs="));
    EXPECTED.put("weft demo alpha", List.of("alpha-beta", "alpha-gamma"));
    for (String c :
        List.of(
            "analyze", "verify", "print", "summary", "diff", "check", "query", "trend", "attach",
            "demo")) {
      EXPECTED.put("weft " + c + " --color ''", List.of("auto", "always", "never"));
    }
  }

  @BeforeAll
  static void completeInBash() throws Exception {
    Path home = tmp.resolve("home");
    Path agent = Files.createDirectories(home.resolve("agent/target")).resolve("weft-agent.jar");
    Path agentClasses = ChildJvms.location(AgentOptions.class);
    if (Files.isDirectory(agentClasses)) {
      jar(agentClasses, agent);
    } else {
      Files.copy(agentClasses, agent);
    }
    jar(
        fakeTestApps(tmp.resolve("testapps-classes")),
        Files.createDirectories(home.resolve("testapps/target")).resolve("weft-testapps.jar"));

    Cli.Result r = Cli.run(Map.of("WEFT_HOME", home.toString()), "completion");
    assertEquals(0, r.exit(), r.toString());
    Path script = Files.writeString(tmp.resolve("weft-completion.bash"), r.out());
    StringBuilder driver = new StringBuilder("source '" + script + "' 2>/dev/null\n");
    driver.append(
        "complete_line() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(( $# - 1 )); COMPREPLY=();"
            + " _complete_weft weft \"${COMP_WORDS[-1]}\" \"${COMP_WORDS[-2]}\" 2>/dev/null;"
            + " echo \"${COMPREPLY[*]}\"; }\n");
    for (String line : EXPECTED.keySet()) {
      driver.append("complete_line ").append(line).append('\n');
    }
    Path driverFile = Files.writeString(tmp.resolve("driver.bash"), driver);
    Process bash =
        new ProcessBuilder("bash", driverFile.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    List<String> replies =
        new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    assertTrue(bash.waitFor(60, TimeUnit.SECONDS), "bash ended");
    assertEquals(EXPECTED.size(), replies.size(), String.join("\n", replies));
    offered = new LinkedHashMap<>();
    int i = 0;
    for (String line : EXPECTED.keySet()) {
      String reply = replies.get(i++).strip();
      offered.put(line, reply.isEmpty() ? List.of() : List.of(reply.split("\\s+")));
    }
  }

  @Test
  void everyFixedSetOfValuesIsOffered() {
    List<String> wrong = new ArrayList<>();
    EXPECTED.forEach(
        (line, words) -> {
          if (!offered.get(line).containsAll(words)) {
            wrong.add(line + " -> " + offered.get(line) + ", expected " + words);
          }
        });
    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
  }

  @Test
  void offersOnlyWordsThatMatchWhatWasTyped() {
    assertEquals(List.of("verify"), offered.get("weft ver"));
    assertEquals(List.of("tasks="), offered.get("weft run --opt ta"));
    assertEquals(List.of("handoff"), offered.get("weft export t --kinds ha"));
  }

  /** Compiles a test apps jar's scenario list with two scenarios, alpha-beta and alpha-gamma. */
  private static Path fakeTestApps(Path classes) throws IOException {
    Path src = Files.createDirectories(tmp.resolve("testapps-src/dev/weft/testapps"));
    Path scenario =
        Files.writeString(
            src.resolve("Scenario.java"),
            "package dev.weft.testapps; public interface Scenario { String name(); }");
    Path scenarios =
        Files.writeString(
            src.resolve("Scenarios.java"),
            "package dev.weft.testapps; public final class Scenarios { public static"
                + " java.util.List<Scenario> all() { return java.util.List.of(() -> \"alpha-beta\","
                + " () -> \"alpha-gamma\", () -> \"hello\"); } }");
    Files.createDirectories(classes);
    int rc =
        ToolProvider.getSystemJavaCompiler()
            .run(
                null,
                null,
                null,
                "-d",
                classes.toString(),
                scenario.toString(),
                scenarios.toString());
    assertEquals(0, rc, "compiled the fake scenario list");
    return classes;
  }

  /** Writes the files under {@code dir} into the jar {@code file}. */
  private static void jar(Path dir, Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file);
        JarOutputStream jar = new JarOutputStream(out);
        Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        jar.putNextEntry(new JarEntry(dir.relativize(p).toString().replace('\\', '/')));
        Files.copy(p, jar);
        jar.closeEntry();
      }
    }
  }
}
