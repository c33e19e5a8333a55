package dev.weft.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where weft finds the jars it starts other JVMs with: the agent ({@code run}, {@code attach},
 * {@code detach}, {@code demo}), the test apps ({@code demo}), and the java to run them with.
 *
 * <p>A jar is looked up in {@code $WEFT_HOME} (a checkout: {@code agent/target/weft-agent.jar}; or
 * a distribution: {@code weft-agent.jar} at its top), then next to {@code weft.jar}, then in the
 * checkout {@code weft.jar} was built in ({@code analyzer-cli/cli/target/weft.jar}).
 */
final class WeftHome {
  private WeftHome() {}

  /** The agent jar: {@code option} when given, else found as the class comment says. */
  static Path agentJar(WeftCommand root, Path option) {
    return find(root, option, "--agent", "agent", "weft-agent.jar", "mvn -B -pl agent -am package");
  }

  /** The test apps jar ({@code weft-testapps.jar}), found as the class comment says. */
  static Path testappsJar(WeftCommand root) {
    return find(
        root, null, null, "testapps", "weft-testapps.jar", "mvn -B -pl testapps -am package");
  }

  private static Path find(
      WeftCommand root, Path option, String optionName, String module, String file, String build) {
    if (option != null) {
      if (!Files.isRegularFile(option)) {
        throw new BadInputException(optionName + " " + option + ": no such file");
      }
      return option.toAbsolutePath();
    }
    List<Path> candidates = new ArrayList<>();
    String home = root.env("WEFT_HOME");
    if (home != null && !home.isEmpty()) {
      candidates.add(Path.of(home, module, "target", file));
      candidates.add(Path.of(home, file));
    }
    Path cliJar = weftJar();
    if (cliJar != null) {
      Path dir = cliJar.getParent();
      candidates.add(dir.resolve(file));
      // Running from a source tree: analyzer-cli/cli/target/weft.jar, three levels below the
      // checkout that holds <module>/target/.
      Path checkout = ancestor(dir, 3);
      if (checkout != null) {
        candidates.add(checkout.resolve(module).resolve("target").resolve(file));
      }
    }
    for (Path c : candidates) {
      if (Files.isRegularFile(c)) {
        return c.toAbsolutePath().normalize();
      }
    }
    throw new BadInputException(
        "cannot find "
            + file
            + " (looked in: "
            + (candidates.isEmpty() ? "nowhere: WEFT_HOME is not set" : joined(candidates))
            + "); build it ("
            + build
            + ")"
            + (optionName == null ? "" : " or pass " + optionName + " JAR"));
  }

  private static Path ancestor(Path dir, int levels) {
    Path p = dir;
    for (int i = 0; i < levels && p != null; i++) {
      p = p.getParent();
    }
    return p;
  }

  private static String joined(List<Path> paths) {
    StringBuilder s = new StringBuilder();
    for (Path p : paths) {
      if (s.length() > 0) {
        s.append(", ");
      }
      s.append(p);
    }
    return s.toString();
  }

  /** The jar weft runs from, or null when it runs from a classes directory. */
  static Path weftJar() {
    try {
      var source = WeftCommand.class.getProtectionDomain().getCodeSource();
      if (source == null) {
        return null;
      }
      Path p = Path.of(source.getLocation().toURI());
      return Files.isRegularFile(p) ? p.toAbsolutePath() : null;
    } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
      return null;
    }
  }

  /** The java to run: {@code option}, the JDK running weft, $JAVA_HOME, or java on the PATH. */
  static Path javaExecutable(WeftCommand root, Path option) {
    String exe = System.getProperty("os.name", "").startsWith("Windows") ? "java.exe" : "java";
    if (option != null) {
      if (!Files.isRegularFile(option)) {
        throw new BadInputException("--java " + option + ": no such file");
      }
      return option;
    }
    Path own = Path.of(System.getProperty("java.home"), "bin", exe);
    if (Files.isRegularFile(own)) {
      return own;
    }
    String home = root.env("JAVA_HOME");
    if (home != null && !home.isEmpty() && Files.isRegularFile(Path.of(home, "bin", exe))) {
      return Path.of(home, "bin", exe);
    }
    return Path.of(exe);
  }
}
