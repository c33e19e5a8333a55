package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.cli.apps.TickApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft run} as a user runs it, in its own JVM: what Ctrl-C leaves behind. */
@Tag("child-jvm")
class RunCommandIT {
  @TempDir Path tmp;

  @Test
  void ctrlCClosesTheTraceAndSaysWhereItIs() throws Exception {
    Path trace = tmp.resolve("t");
    Path out = tmp.resolve("weft.out");
    Path err = tmp.resolve("weft.err");
    ProcessBuilder pb =
        new ProcessBuilder(
                ChildJvms.java().toString(),
                "-jar",
                ChildJvms.cliJar().toString(),
                "run",
                "--agent",
                ChildJvms.agentJar().toString(),
                "--out",
                trace.toString(),
                "-cp",
                ChildJvms.appClassPath(),
                TickApp.class.getName())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    Process weft = pb.start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.readString(out).startsWith("ready")) {
        assertTrue(weft.isAlive(), () -> "weft ended early: " + ChildJvms.read(err));
        assertTrue(System.nanoTime() < deadline, "the program is not ready after 60 s");
        Thread.sleep(20);
      }
      Thread.sleep(200);
      ProcessHandle program = weft.toHandle().children().findFirst().orElseThrow();
      // A terminal's Ctrl-C signals the whole foreground group, weft and its program. SIGTERM
      // stands in for SIGINT, which runs the same shutdown hooks: a build started in the
      // background (nohup, CI) passes SIGINT on as ignored, and the JVM then keeps ignoring it.
      Process kill =
          new ProcessBuilder(
                  "kill", "-TERM", Long.toString(weft.pid()), Long.toString(program.pid()))
              .inheritIO()
              .start();
      assertEquals(0, kill.waitFor());
      assertTrue(weft.waitFor(60, TimeUnit.SECONDS), "weft did not end after the signal");
      String said = ChildJvms.read(err);
      assertTrue(
          said.contains("weft: trace in " + trace + "  (next: weft summary " + trace + ")"),
          () ->
              "exit "
                  + weft.exitValue()
                  + ", stderr: "
                  + said
                  + ", stdout: "
                  + ChildJvms.read(out));
      Cli.Result v = Cli.run("verify", trace.toString());
      assertEquals(0, v.exit(), v.toString());
      assertTrue(v.out().contains("OK"), v.toString());
    } finally {
      weft.destroyForcibly();
    }
  }
}
