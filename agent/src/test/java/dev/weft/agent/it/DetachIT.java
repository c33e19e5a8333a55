package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm.Result;
import dev.weft.agentit.apps.DetachApp;
import dev.weft.trace.EventKind;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code WeftAgent.detach()}: recording stops, the trace is closed, woven classes are restored. */
@Tag("child-jvm")
class DetachIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void detachClosesTheTraceAndRestoresClasses(Path jdk) {
    Path trace = tmp.resolve("trace");
    Result r =
        ChildJvm.run(
            ChildJvm.command(jdk, "out=" + trace, ChildJvm.classPath(), DetachApp.class.getName()),
            tmp);
    assertEquals(0, r.exitCode(), r.stderr());
    assertEquals("", r.stderr());
    assertEquals(
        List.of(
            "recording before: true",
            "detached: true",
            "second detach: null",
            "recording after: false",
            "sum 12"),
        List.of(r.stdout().split("\\R")));

    TraceFacts t = TraceFacts.read(trace);
    assertTrue(t.definitions.closedCleanly());
    assertEquals("true", t.definitions.attributes().get("agent.detached"));
    // DetachApp, Weft and Region were woven and are retransformed back.
    assertTrue(
        Integer.parseInt(t.definitions.attributes().get("agent.restored_classes")) >= 3,
        t.definitions.attributes().toString());
    int before = t.region("before").id();
    assertEquals(3, t.count(EventKind.ENTER, before));
    assertEquals(3, t.count(EventKind.EXIT, before));
    assertTrue(t.regionsNamed("after").isEmpty(), "nothing woven or recorded after detach");
    assertEquals(
        12, t.allButPrinting().size(), "3 x (region + work) x (enter + exit), nothing after");
  }
}
