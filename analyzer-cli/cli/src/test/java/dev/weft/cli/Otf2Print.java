package dev.weft.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The OTF2 reference reader, {@code otf2-print} (Debian package {@code otf2-tools}), run on an
 * archive. The binary is {@code /usr/bin/otf2-print} unless the system property {@code
 * weft.otf2print} names another. Tests that need it fail when it is missing, unless {@code
 * -Dweft.otf2.tests=false}.
 */
final class Otf2Print {
  private Otf2Print() {}

  /** What otf2-print printed and returned. */
  record Output(int exit, List<String> lines, String err) {}

  static Path binary() {
    return Paths.get(System.getProperty("weft.otf2print", "/usr/bin/otf2-print"));
  }

  /** False only when the build says so with {@code -Dweft.otf2.tests=false}. */
  static boolean required() {
    return !"false".equals(System.getProperty("weft.otf2.tests"));
  }

  /** Runs {@code otf2-print ARGS ANCHOR}. */
  static Output run(Path anchor, String... args) throws IOException, InterruptedException {
    Path bin = binary();
    if (!Files.isExecutable(bin)) {
      throw new IllegalStateException(
          bin
              + " not found: the OTF2 export tests need otf2-print"
              + " (apt-get install -y otf2-tools); run with -Dweft.otf2.tests=false to skip them");
    }
    List<String> cmd = new ArrayList<>(List.of(bin.toString()));
    cmd.addAll(List.of(args));
    cmd.add(anchor.toString());
    Path out = Files.createTempFile("otf2-print", ".out");
    Path err = Files.createTempFile("otf2-print", ".err");
    try {
      Process p =
          new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("otf2-print did not finish in 120 s");
      }
      return new Output(
          p.exitValue(),
          Files.readAllLines(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
