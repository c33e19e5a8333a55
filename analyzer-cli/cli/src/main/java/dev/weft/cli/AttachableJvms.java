package dev.weft.cli;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The JVMs {@code weft attach} could record, as {@code jcmd} lists them: pid, main class or jar,
 * uptime, and whether Weft records it. Nothing is attached to list them: the JDK's list comes from
 * the JVMs' performance data files, and a recording from {@code /proc} (it maps its event files).
 */
final class AttachableJvms {
  private AttachableJvms() {}

  /** One JVM of the list. */
  record Jvm(long pid, String main, Duration uptime, String weft) {}

  /** The JVMs of this user, oldest first, without weft's own. */
  static List<Jvm> list() {
    long self = ProcessHandle.current().pid();
    List<Jvm> jvms = new ArrayList<>();
    for (VirtualMachineDescriptor d : VirtualMachine.list()) {
      long pid;
      try {
        pid = Long.parseLong(d.id());
      } catch (NumberFormatException e) {
        continue;
      }
      if (pid == self) {
        continue;
      }
      Duration uptime =
          ProcessHandle.of(pid)
              .flatMap(p -> p.info().startInstant())
              .map(start -> Duration.between(start, Instant.now()))
              .orElse(null);
      jvms.add(new Jvm(pid, mainOf(d.displayName()), uptime, weftIn(pid)));
    }
    jvms.sort(
        Comparator.comparing((Jvm j) -> j.uptime() == null ? Duration.ZERO : j.uptime())
            .reversed());
    return jvms;
  }

  /** Prints the list as a table, or says that there is none. */
  static void print(List<Jvm> jvms, PrintWriter out, Style style) {
    if (jvms.isEmpty()) {
      out.println(style.dim("  (no JVM of this user is running)"));
      return;
    }
    out.println(
        style.bold(
            String.format(Locale.ROOT, "  %8s  %-9s  %-12s  %s", "PID", "UPTIME", "WEFT", "MAIN")));
    for (Jvm j : jvms) {
      out.printf(
          Locale.ROOT,
          "  %8d  %-9s  %s  %s%n",
          j.pid(),
          j.uptime() == null ? "?" : uptime(j.uptime()),
          // Padded before colouring: escape codes take no columns.
          j.weft().equals("-")
              ? String.format(Locale.ROOT, "%-12s", j.weft())
              : style.green(String.format(Locale.ROOT, "%-12s", j.weft())),
          j.main());
    }
  }

  /** The main class or jar: the first word of the JDK's display name (the rest are arguments). */
  static String mainOf(String displayName) {
    String s = displayName == null ? "" : displayName.strip();
    int space = s.indexOf(' ');
    String main = space < 0 ? s : s.substring(0, space);
    return main.isEmpty() ? "(unknown)" : main;
  }

  /** {@code 45s}, {@code 12m}, {@code 3h 05m}, {@code 2d 04h}. */
  static String uptime(Duration d) {
    long s = Math.max(0, d.getSeconds());
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return s / 60 + "m";
    }
    if (s < 86_400) {
      return String.format(Locale.ROOT, "%dh %02dm", s / 3600, s / 60 % 60);
    }
    return String.format(Locale.ROOT, "%dd %02dh", s / 86_400, s / 3600 % 24);
  }

  private static boolean closed(Path trace) {
    try (Trace t = Trace.open(trace)) {
      return t.definitions().closedCleanly();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** "recording" (a trace of it is open), "-" (none), or "?" (cannot tell). */
  static String weftIn(long pid) {
    Path proc = Path.of("/proc", Long.toString(pid));
    if (!Files.isDirectory(proc)) {
      return "?";
    }
    // Event files stay mapped after their trace is closed (until the JVM collects the buffers):
    // recording means a mapped trace that is not closed yet.
    Set<Path> traces = new HashSet<>();
    try (Stream<String> maps = Files.lines(proc.resolve("maps"))) {
      maps.filter(l -> l.endsWith(".wev"))
          .map(l -> Path.of(l.substring(l.indexOf('/'))).getParent())
          .filter(events -> events != null && events.getParent() != null)
          .forEach(events -> traces.add(events.getParent()));
    } catch (IOException | RuntimeException e) {
      return "?";
    }
    for (Path trace : traces) {
      if (!closed(trace)) {
        return "recording";
      }
    }
    return "-";
  }
}
