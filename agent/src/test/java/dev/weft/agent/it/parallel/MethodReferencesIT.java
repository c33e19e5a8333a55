package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agentit.apps.parallel.MethodReferenceApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.RegionDef;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Waits called through method references are recorded at the line of the reference, and the program
 * computes what it computes without the agent, serializable references included.
 */
@Tag("child-jvm")
class MethodReferencesIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void joinsThroughMethodReferencesAreJoinWaitsAtTheReferencesLine(Path jdk) {
    ParallelRun run = ParallelRun.of(jdk, tmp, "", MethodReferenceApp.class);
    run.assertSameOutput();
    assertTrue(run.traced.stdout().contains("serializable: "), run.traced.stdout());

    assertJoinWaitsAt(run, "// bound join reference", run.printed("joins"));
    assertJoinWaitsAt(run, "// unbound join", 3);
    assertJoinWaitsAt(run, "// thread join reference", 1);
    int serializable = ParallelRun.lineOf(MethodReferenceApp.class, "// serializable");
    for (RegionDef r : run.trace.definitions.regions()) {
      assertTrue(r.firstLine() != serializable, "a serializable reference is left alone: " + r);
    }
  }

  /** {@code calls} join waits (enter and exit) in the region at the line marked {@code marker}. */
  private static void assertJoinWaitsAt(ParallelRun run, String marker, long calls) {
    int line = ParallelRun.lineOf(MethodReferenceApp.class, marker);
    RegionDef region = run.regionAtLine(line);
    assertEquals("MethodReferenceApp.java", region.file(), region.toString());
    List<Event> enters =
        run.events(e -> e.kind() == EventKind.JOIN_WAIT_ENTER && in(run, e, region));
    List<Event> exits = run.events(e -> e.kind() == EventKind.JOIN_WAIT_EXIT && in(run, e, region));
    assertEquals(calls, enters.size(), () -> marker + ": " + region);
    assertEquals(calls, exits.size(), () -> marker + ": " + region);
  }

  private static boolean in(ParallelRun run, Event e, RegionDef region) {
    return run.region(e).equals(region);
  }
}
