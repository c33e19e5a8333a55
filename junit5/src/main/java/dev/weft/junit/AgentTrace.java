package dev.weft.junit;

import dev.weft.api.Weft;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the trace the Weft agent is recording in this JVM: the {@code out=} of its {@code
 * -javaagent} option, the {@code weft.out} system property or {@code WEFT_OUT} variable, or else
 * the agent's default directory for this process ({@code weft-traces/<main>-<pid>-<time>}).
 */
final class AgentTrace {
  private AgentTrace() {}

  /** The trace directory being recorded, or empty when the agent is not recording. */
  static Optional<Path> find() {
    if (!Weft.isRecording()) {
      return Optional.empty();
    }
    String out = fromAgentArgs(ManagementFactory.getRuntimeMXBean().getInputArguments());
    if (out == null) {
      out = System.getProperty("weft.out", System.getenv("WEFT_OUT"));
    }
    if (out != null) {
      Path dir = Path.of(out);
      return Files.isRegularFile(dir.resolve("defs.wdf")) ? Optional.of(dir) : Optional.empty();
    }
    return byProcessId(Path.of("weft-traces"), ProcessHandle.current().pid());
  }

  /** The {@code out=} value of a {@code -javaagent:…weft…=…} argument, or null. */
  static String fromAgentArgs(List<String> jvmArgs) {
    for (String arg : jvmArgs) {
      String a = arg.strip();
      if (a.startsWith("\"") && a.endsWith("\"") && a.length() > 1) {
        a = a.substring(1, a.length() - 1);
      }
      if (!a.startsWith("-javaagent:") || !a.contains("weft")) {
        continue;
      }
      int eq = a.indexOf('=');
      if (eq < 0) {
        continue;
      }
      for (String item : a.substring(eq + 1).split(",")) {
        if (item.startsWith("out=")) {
          return item.substring(4);
        }
      }
    }
    return null;
  }

  private static Optional<Path> byProcessId(Path root, long pid) {
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> dirs = Files.list(root)) {
      return dirs.filter(d -> d.getFileName().toString().contains("-" + pid + "-"))
          .filter(d -> Files.isRegularFile(d.resolve("defs.wdf")))
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
