package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A virtual thread's events on its carriers' streams read as its own (FORMAT.md, "Virtual
 * threads").
 */
class CarriedThreadTest {
  @TempDir Path tmp;

  /** Virtual thread 100 takes lock 7 on carrier A, parks holding it, and resumes on carrier B. */
  private Path write(boolean carried, boolean badUnmount) throws Exception {
    Path dir = tmp.resolve(carried ? (badUnmount ? "bad" : "carried") : "older");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_000, 1));
      w.defineRegion(
          new RegionDef(3, ConstructKind.REENTRANT_LOCK, "lock", "A", "run", "A.java", 9, 9));
      StreamWriter a = w.openStream(11, "carrier-a", 0, 0, 0);
      StreamWriter b = w.openStream(12, "carrier-b", 0, 0, 0);
      a.vthreadMount(10, 100);
      if (carried) {
        assertEquals(3, w.defineCarriedThread(100, "v", 0, 10));
      }
      a.threadBegin(11);
      a.lockRequest(12, 3, 7);
      a.lockAcquired(13, 7, 0);
      a.waitEnter(14, 3, WaitKind.PARK);
      a.vthreadUnmount(15, badUnmount ? 101 : 100);
      a.vthreadMount(16, 200); // another virtual thread, without a definition: stays on A
      a.enter(17, 0);
      a.exit(18, 0);
      a.vthreadUnmount(19, 200);
      b.vthreadMount(20, 100);
      b.waitExit(21, 3);
      b.lockReleased(22, 7);
      b.threadEnd(23);
      b.vthreadUnmount(24, 100);
    }
    return dir;
  }

  @Test
  void aCarriedVirtualThreadIsOneLogicalStreamOverItsCarriers() throws Exception {
    try (Trace t = Trace.open(write(true, false))) {
      Definitions d = t.definitions();
      ThreadDef v = d.thread(3);
      assertTrue(v.isCarried() && v.isVirtual(), v.toString());
      assertEquals(3, d.carriedStream(100));
      assertEquals(0, d.carriedStream(200));
      assertEquals(3, d.threads().size());
      assertEquals(2, d.streamDefinitions().size(), "no event file for the virtual thread");
      assertEquals(Trace.Status.COMPLETE, t.integrity().status());
      assertEquals(
          List.of(
              "10:1:vthread_mount",
              "11:3:thread_begin",
              "12:3:lock_request",
              "13:3:lock_acquired",
              "14:3:wait_enter",
              "15:1:vthread_unmount",
              "16:1:vthread_mount",
              "17:1:enter",
              "18:1:exit",
              "19:1:vthread_unmount",
              "20:2:vthread_mount",
              "21:3:wait_exit",
              "22:3:lock_released",
              "23:3:thread_end",
              "24:2:vthread_unmount"),
          Writes.eventLines(t));
    }
  }

  @Test
  void itVerifiesAsOneThreadWhereTheCarriersAloneWouldNot() throws Exception {
    try (Trace t = Trace.open(write(true, false))) {
      TraceVerifier.VerifyReport r = TraceVerifier.verify(t);
      assertTrue(r.ok(), r.errors().toString());
      assertEquals(List.of(), r.warnings());
    }
    // Without the definition (a 1.2 trace) the stretches stay on the carriers: B's wait exit and
    // release have no opening there.
    try (Trace t = Trace.open(write(false, false))) {
      TraceVerifier.VerifyReport r = TraceVerifier.verify(t);
      assertFalse(r.errors().isEmpty() && r.warnings().isEmpty(), "the split shows");
    }
  }

  @Test
  void anUnmountOfAnotherVirtualThreadIsAnError() throws Exception {
    try (Trace t = Trace.open(write(true, true))) {
      TraceVerifier.VerifyReport r = TraceVerifier.verify(t);
      assertTrue(
          r.errors().stream().anyMatch(e -> e.contains("vthread_unmount of 101 while 100")),
          r.errors().toString());
    }
  }
}
