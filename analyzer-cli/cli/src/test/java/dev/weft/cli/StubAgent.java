package dev.weft.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Stands in for the Weft agent in {@code weft run} tests: creates the {@code out=} directory and
 * writes the option string it received there, so tests can see exactly what {@code weft run}
 * passed.
 */
public final class StubAgent {
  private StubAgent() {}

  public static void premain(String options) throws IOException {
    String out = null;
    for (String kv : options.split(",")) {
      if (kv.startsWith("out=")) {
        out = kv.substring(4);
      }
    }
    Path dir = Files.createDirectories(Path.of(out));
    Files.writeString(dir.resolve("agent-options.txt"), options);
  }
}
