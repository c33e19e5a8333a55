package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** weft query --engine spark without the Spark module, and --master without it. */
class SparkEngineTest {
  @TempDir Path tmp;

  @Test
  void sparkEngineNotBuiltIsOneLineSayingHowToBuildItAndExitTwo() throws Exception {
    Path store = Files.createDirectories(tmp.resolve("store"));
    String before = System.getProperty(SparkEngine.HOME_PROPERTY);
    System.setProperty(SparkEngine.HOME_PROPERTY, tmp.resolve("no-spark").toString());
    try {
      Cli.Result r = Cli.run("query", "--engine", "spark", store.toString(), "SELECT 1");
      assertEquals(ExitCodes.BAD_INPUT, r.exit(), r.toString());
      assertEquals("", r.out());
      assertTrue(r.err().startsWith("weft: the Spark engine is not built"), r.err());
      assertTrue(r.err().contains("mvn -B -Pspark package"), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
    } finally {
      if (before == null) {
        System.clearProperty(SparkEngine.HOME_PROPERTY);
      } else {
        System.setProperty(SparkEngine.HOME_PROPERTY, before);
      }
    }
  }

  @Test
  void masterWithoutSparkIsBadInput() throws Exception {
    Path store = Files.createDirectories(tmp.resolve("store"));
    Cli.Result r = Cli.run("query", "--master", "local[2]", store.toString(), "SELECT 1");
    assertEquals(ExitCodes.BAD_INPUT, r.exit(), r.toString());
    assertEquals("weft: --master is for --engine spark\n", r.err());
  }

  @Test
  void argumentsOfTheSparkQuery() {
    assertEquals(
        java.util.List.of(
            "--master", "spark://h:7077", "--format", "csv", "--skip-damaged", "D", "Q"),
        SparkEngine.args("spark://h:7077", "CSV", true, "D", "Q"));
    assertEquals(
        java.util.List.of("--format", "table", "D", "Q"),
        SparkEngine.args(null, "TABLE", false, "D", "Q"));
    assertEquals(
        java.util.List.of(
            "--format", "table", "--trend", "wait", "--last", "9", "--main-class", "C", "D"),
        SparkEngine.trendArgs(null, false, "D", "wait", 9, "C"));
    assertEquals(
        java.util.List.of(
            "--master",
            "m",
            "--format",
            "table",
            "--skip-damaged",
            "--trend",
            "w",
            "--last",
            "2",
            "hdfs://h/d"),
        SparkEngine.trendArgs("m", true, "hdfs://h/d", "w", 2, null));
    assertEquals("hdfs://h/d", StoreCommands.forSpark("hdfs://h/d"));
    assertEquals("file:///tmp/s", StoreCommands.forSpark("file:///tmp/s"));
    assertTrue(Path.of(StoreCommands.forSpark("rel/dir")).isAbsolute());
    assertFalse(StoreCommands.isUri("C:\\store"));
  }
}
