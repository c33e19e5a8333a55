package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.OwnLockApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceVerifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A {@code Lock} of the program's own, built on a {@code ReentrantLock} ({@link OwnLockApp}): every
 * acquisition and release of it is recorded, through its class as through the interface, with the
 * inner lock's nested inside, and the trace verifies clean (it used to have releases of a lock the
 * thread did not hold, taken through the class unseen).
 */
@Tag("child-jvm")
class OwnLockIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void aLockOfTheProgramsOwnIsRecordedWhicheverTypeItIsCalledThrough(Path jdk) {
    TraceFacts t = SyncTraces.run(jdk, tmp, "", OwnLockApp.class).trace();
    List<String> outer = new ArrayList<>();
    List<String> inner = new ArrayList<>();
    for (Event e : t.eventsByStream.get(SyncTraces.stream(t, "main"))) {
      if (e.kind() != EventKind.LOCK_REQUEST
              && e.kind() != EventKind.LOCK_ACQUIRED
              && e.kind() != EventKind.LOCK_RELEASED
          || t.printing(e)) {
        continue;
      }
      ObjectDef o = t.definitions.object(e.get(Field.OBJECT));
      String entry = e.kind().id() + (o == null ? "" : " " + o.className());
      (o != null && o.className().endsWith("DelegatingLock") ? outer : inner).add(entry);
    }
    String own = OwnLockApp.class.getName() + "$DelegatingLock";
    List<String> round =
        List.of(
            "lock_request " + own, "lock_acquired " + own, "lock_released " + own); // class lock
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 3 * 3; i++) {
      expected.addAll(round);
    }
    assertEquals(expected, outer, "class and interface calls of the program's own lock");
    assertEquals(3 * 3 * 3, inner.size(), "the ReentrantLock inside: " + inner);
    try (Trace trace = Trace.open(tmp.resolve("trace"))) {
      TraceVerifier.VerifyReport r = TraceVerifier.verify(trace);
      assertEquals(List.of(), r.errors());
      assertEquals(List.of(), r.warnings());
    }
  }
}
