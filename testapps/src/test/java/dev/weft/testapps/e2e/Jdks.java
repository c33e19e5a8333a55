package dev.weft.testapps.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The JDKs the harness runs on, and where the agent jar is. */
final class Jdks {
  private Jdks() {}

  /** The JDK running the tests, then the one {@code weft.jdk25.home} names if it is installed. */
  static List<Path> homes() {
    List<Path> homes = new ArrayList<>();
    homes.add(Path.of(System.getProperty("java.home")));
    String jdk25 = System.getProperty("weft.jdk25.home", "");
    if (!jdk25.isEmpty() && Files.isExecutable(Path.of(jdk25, "bin", "java"))) {
      homes.add(Path.of(jdk25));
    }
    return homes;
  }

  /** The feature release of the JDK at {@code home} (17, 25), from its {@code release} file. */
  static int featureVersion(Path home) {
    try {
      for (String line : Files.readAllLines(home.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
          return Integer.parseInt(v.split("[.]")[0]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      throw new IllegalStateException("cannot tell the version of the JDK at " + home, e);
    }
    throw new IllegalStateException("no JAVA_VERSION in " + home.resolve("release"));
  }

  /**
   * The shaded agent jar: system property {@code weft.agent.jar}, else {@code
   * ../agent/target/weft-agent.jar} from the module directory (the reactor builds it first).
   */
  static Path agentJar() {
    Path jar =
        Path.of(System.getProperty("weft.agent.jar", "../agent/target/weft-agent.jar"))
            .toAbsolutePath()
            .normalize();
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: build the agent module first");
    }
    return jar;
  }
}
