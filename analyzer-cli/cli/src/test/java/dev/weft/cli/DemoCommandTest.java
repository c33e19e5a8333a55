package dev.weft.cli;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir Path tmp;

  @Test
  void missingJarsAreOneLineSayingHowToBuildThem() throws Exception {
    Path home = tmp.resolve("home");
    Map<String, String> env = Map.of("WEFT_HOME", home.toString());
    BadInputTest.assertOneLineError(
        Cli.run(env, "demo", "--agent", tmp.resolve("none.jar").toString()),
        "--agent " + tmp.resolve("none.jar") + ": no such file");
    java.nio.file.Files.createDirectories(home.resolve("agent/target"));
    java.nio.file.Files.writeString(home.resolve("agent/target/weft-agent.jar"), "");
    BadInputTest.assertOneLineError(
        Cli.run(env, "demo"),
        "cannot find weft-testapps.jar (looked in: "
            + home.resolve("testapps/target/weft-testapps.jar"));
  }
}
