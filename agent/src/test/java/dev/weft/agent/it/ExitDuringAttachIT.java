package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agentit.apps.sync.ExitDuringAttachApp;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A program that ends while an attached agent is still weaving the loaded classes: the JVM's exit
 * waits for the start, then the agent closes the trace, which used to be left cut.
 */
@Tag("child-jvm")
class ExitDuringAttachIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void aProgramEndingDuringTheAttachLeavesAClosedTrace(Path jdk) {
    Path trace = tmp.resolve("trace");
    List<String> cmd =
        ChildJvm.selfAttachCommand(
            jdk,
            ExitDuringAttachApp.class.getName(),
            tmp.resolve("log").toString(),
            ChildJvm.AGENT_JAR.toString(),
            "out=" + trace);
    ChildJvm.Result r = ChildJvm.run(cmd, tmp);
    assertEquals(0, r.exitCode(), r.stderr());
    assertEquals("done\n", r.stdout());
    TraceFacts t = TraceFacts.read(trace);
    assertTrue(t.definitions.closedCleanly(), "the trace has its END record");
    assertEquals("true", t.definitions.attributes().get("agent.attached"));
  }
}
