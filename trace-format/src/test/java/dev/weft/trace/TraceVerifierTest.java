package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verifier on hand-built traces: good ones pass, each kind of mistake is named where it is. */
class TraceVerifierTest {
  @TempDir Path tmp;

  private static final int WORK = 1;
  private static final int INNER = 2;
  private static final int LOCK_SITE = 3;
  private static final int BARRIER_SITE = 4;
  private static final int JOIN_SITE = 5;
  private static final long LOCK = 10;
  private static final long OTHER_LOCK = 11;
  private static final long SEMAPHORE = 12;
  private static final long BARRIER = 20;

  private int traces;

  /** Builds one trace: regions 1-5 and a semaphore defined, then {@code body} writes events. */
  private interface Body {
    void write(TraceWriter w) throws IOException;
  }

  private Path build(boolean close, Body body) throws IOException {
    Path dir = tmp.resolve("t" + traces++);
    TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults());
    w.defineClock(new ClockDef(0, 0, 1));
    String[] names = {"", "work", "inner", "lock", "barrier", "join"};
    for (int id = 1; id <= 5; id++) {
      w.defineRegion(
          new RegionDef(
              id, ConstructKind.USER_REGION, names[id], "App", "run", "App.java", id, id));
    }
    w.defineObject(new ObjectDef(SEMAPHORE, ConstructKind.SEMAPHORE, "Semaphore", 0));
    body.write(w);
    if (close) {
      w.close(1_000_000_000L);
    }
    return dir;
  }

  private static void assertDamaged(TraceVerifier.VerifyReport r, String what) {
    assertEquals(Trace.Status.DAMAGED, r.integrity().status(), r.toString());
    assertFalse(r.ok());
    assertTrue(r.integrity().damage().get(0).contains(what), r.integrity().damage().toString());
    assertTrue(r.errors().isEmpty(), r.errors().toString());
  }

  private static TraceVerifier.VerifyReport verify(Path dir) {
    try (Trace t = Trace.open(dir)) {
      return TraceVerifier.verify(t);
    }
  }

  private static void assertOneError(TraceVerifier.VerifyReport r, String... parts) {
    assertEquals(1, r.errors().size(), "errors: " + r.errors());
    for (String p : parts) {
      assertTrue(r.errors().get(0).contains(p), r.errors().get(0) + " should say " + p);
    }
    assertFalse(r.ok());
  }

  @Test
  void wellFormedTraceOfEveryConstructHasNoErrorsAndNoWarnings() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter main = w.openStream(1, "main", 0, 0, 0);
              StreamWriter worker = w.openStream(2, "worker", 0, 0, 0);
              main.threadBegin(10);
              main.enter(20, WORK);
              main.fork(25, JOIN_SITE, 0, 2);
              main.taskCreate(30, JOIN_SITE, 77, 0);
              main.joinWaitEnter(40, JOIN_SITE, 77);
              main.helpEnter(45, JOIN_SITE);
              main.taskBegin(46, 78); // helping: another task runs inside the join
              main.enter(47, INNER);
              main.exit(48, INNER);
              main.taskEnd(49, 78);
              main.helpExit(50, JOIN_SITE);
              main.joinWaitExit(60, JOIN_SITE);
              main.join(61, JOIN_SITE, 0);
              main.lockRequest(70, LOCK_SITE, LOCK);
              main.lockAcquired(71, LOCK, 0);
              main.lockRequest(72, LOCK_SITE, LOCK);
              main.lockAcquired(73, LOCK, LockFlags.REENTRANT);
              main.lockRequest(74, LOCK_SITE, OTHER_LOCK);
              main.lockAcquired(75, OTHER_LOCK, LockFlags.FAILED); // tryLock failed
              main.waitEnter(76, LOCK_SITE, WaitKind.OBJECT_WAIT);
              main.waitExit(77, LOCK_SITE);
              main.lockAcquired(78, LOCK, LockFlags.AFTER_WAIT);
              main.lockReleased(79, LOCK);
              main.lockReleased(80, LOCK);
              main.barrierEnter(90, BARRIER_SITE, BARRIER, 3);
              main.barrierExit(95, BARRIER_SITE, BARRIER, 3, BarrierOutcome.LAST);
              main.spinEnter(96, INNER);
              main.spinExit(97, INNER);
              main.measurementOff(98);
              main.measurementOn(99);
              main.exit(100, WORK);
              main.threadEnd(110);
              worker.taskBegin(31, 77);
              worker.lockReleased(32, SEMAPHORE); // a permit released by another thread
              worker.taskEnd(55, 77);
            });
    TraceVerifier.VerifyReport r = verify(dir);
    assertEquals(List.of(), r.errors());
    assertEquals(List.of(), r.warnings());
    assertTrue(r.ok());
    assertFalse(r.cut());
    assertEquals(0, r.dropped());
    assertEquals(35, r.events());
  }

  /**
   * A thread that ends holding a lock is warned about; one that ends holding a semaphore permit is
   * not: another thread may give it back (a pool reserving a thread with a permit does).
   */
  @Test
  void aPermitTakenAtThreadEndIsNotALockStillHeld() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.threadBegin(10);
              s.lockRequest(20, LOCK_SITE, SEMAPHORE);
              s.lockAcquired(21, SEMAPHORE, 0);
              s.lockRequest(30, LOCK_SITE, LOCK);
              s.lockAcquired(31, LOCK, 0);
              s.threadEnd(40);
            });
    TraceVerifier.VerifyReport r = verify(dir);
    assertEquals(List.of(), r.errors());
    assertEquals(1, r.warnings().size(), r.warnings().toString());
    assertTrue(
        r.warnings().get(0).contains("1 lock(s) still held at thread_end"),
        r.warnings().toString());
  }

  @Test
  void exitOfAnotherRegionThanTheInnermostIsAnError() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.enter(1_000_000, WORK);
              s.enter(2_000_000, INNER);
              s.exit(3_000_000, WORK);
            });
    assertOneError(
        verify(dir),
        "thread 'main' (stream 1)",
        "event #2 at +3.000000 ms",
        "exit of region 1 'work' (App.java:1)",
        "innermost open construct is enter of region 2 'inner' (App.java:2) (event #1)");
  }

  @Test
  void unmatchedExitAtTheStartOfAStreamIsOnlyAWarning() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.exit(5, INNER); // entered before recording started
              s.lockReleased(6, LOCK);
              s.enter(7, WORK);
              s.exit(8, WORK);
            });
    TraceVerifier.VerifyReport r = verify(dir);
    assertTrue(r.ok(), r.errors().toString());
    assertEquals(1, r.warnings().size(), r.warnings().toString());
    assertTrue(r.warnings().get(0).contains("2 closing event(s) without a matching opening"));
    assertTrue(r.warnings().get(0).contains("event #0"), r.warnings().get(0));
  }

  @Test
  void unmatchedExitOfAThreadThatBeganInTheTraceIsAnError() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "worker", 0, 0, 0);
              s.threadBegin(1);
              s.exit(5, INNER);
              s.threadEnd(6);
            });
    assertOneError(verify(dir), "event #1", "exit of region 2 'inner'", "without a matching enter");
  }

  @Test
  void measurementGapForgivesConstructsThatClosedWhileOff() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter a = w.openStream(1, "a", 0, 0, 0);
              StreamWriter b = w.openStream(2, "b", 0, 0, 0);
              a.threadBegin(1);
              b.threadBegin(1);
              b.enter(2, WORK);
              b.enter(3, INNER); // closes while measurement is off
              a.measurementOff(4);
              a.measurementOn(10);
              b.exit(11, WORK);
              b.exit(12, JOIN_SITE); // entered while off
              b.threadEnd(13);
              a.threadEnd(14);
            });
    TraceVerifier.VerifyReport r = verify(dir);
    assertTrue(r.ok(), r.errors().toString());
    assertEquals(1, r.warnings().size(), r.warnings().toString());
    assertTrue(r.warnings().get(0).startsWith("thread 'b' (stream 2): 1 closing event(s)"));
  }

  @Test
  void lockMistakesAreErrors() throws IOException {
    assertOneError(
        verify(
            build(
                true,
                w -> {
                  StreamWriter s = w.openStream(1, "main", 0, 0, 0);
                  s.threadBegin(0);
                  s.lockRequest(1, LOCK_SITE, LOCK);
                  s.lockAcquired(2, LOCK, LockFlags.FAILED);
                  s.lockReleased(3, LOCK); // a failed tryLock has nothing to release
                })),
        "event #3",
        "lock_released of lock 10 that the thread does not hold");
    assertOneError(
        verify(
            build(
                true,
                w -> {
                  StreamWriter s = w.openStream(1, "main", 0, 0, 0);
                  s.lockRequest(1, LOCK_SITE, LOCK);
                  s.lockAcquired(2, OTHER_LOCK, 0);
                  s.lockReleased(3, OTHER_LOCK);
                })),
        "event #1",
        "lock_acquired of lock 11 while the request of lock 10 (event #0) is pending");
    assertOneError(
        verify(
            build(
                true,
                w -> {
                  StreamWriter s = w.openStream(1, "main", 0, 0, 0);
                  s.lockRequest(1, LOCK_SITE, LOCK);
                  s.lockRequest(2, LOCK_SITE, OTHER_LOCK);
                  s.lockAcquired(3, LOCK, 0); // the inner request is still pending
                  s.lockReleased(4, LOCK);
                })),
        "event #2",
        "lock_acquired of lock 10 but the innermost open construct is lock_request of lock 11");
    assertOneError(
        verify(
            build(
                true,
                w -> {
                  StreamWriter s = w.openStream(1, "main", 0, 0, 0);
                  s.threadBegin(0);
                  s.lockAcquired(1, LOCK, 0);
                  s.lockReleased(2, LOCK);
                  s.lockReleased(3, LOCK); // one release too many
                })),
        "event #3",
        "lock_released of lock 10 that the thread does not hold");
  }

  /**
   * A {@code Lock} built on another lock (Lucene's {@code DocumentsWriterPerThread.tryLock} calls a
   * {@code ReentrantLock}'s): the inner request is answered inside the outer one, then the outer.
   * And a monitor held twice, given up in full by a wait (its release just before the wait) and
   * taken back after it, is held twice again.
   */
  @Test
  void aLockBuiltOnAnotherAndAWaitFromDeepInAMonitorAreWellFormed() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.threadBegin(0);
              s.lockRequest(1, LOCK_SITE, LOCK);
              s.lockRequest(2, LOCK_SITE, OTHER_LOCK);
              s.lockAcquired(3, OTHER_LOCK, 0);
              s.lockAcquired(4, LOCK, 0);
              s.lockReleased(5, LOCK);
              s.lockReleased(6, OTHER_LOCK);
              s.lockAcquired(10, LOCK, 0);
              s.lockAcquired(11, LOCK, LockFlags.REENTRANT);
              s.lockReleased(12, LOCK); // the wait's release
              s.waitEnter(13, LOCK_SITE, WaitKind.OBJECT_WAIT);
              s.waitExit(14, LOCK_SITE);
              s.lockAcquired(15, LOCK, LockFlags.AFTER_WAIT);
              s.lockReleased(16, LOCK);
              s.lockAcquired(17, LOCK, LockFlags.REENTRANT);
              s.lockReleased(18, LOCK);
              s.lockReleased(19, LOCK);
              s.threadEnd(20);
            });
    TraceVerifier.VerifyReport r = verify(dir);
    assertEquals(List.of(), r.errors());
    assertEquals(List.of(), r.warnings());
  }

  @Test
  void barrierExitOfAnotherGenerationIsAnError() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.barrierEnter(1, BARRIER_SITE, BARRIER, 3);
              s.barrierExit(2, BARRIER_SITE, BARRIER, 4, 0);
            });
    assertOneError(
        verify(dir),
        "barrier_exit of barrier 20 generation 4",
        "innermost open construct is barrier_enter of barrier 20 generation 3 (event #0)");
  }

  @Test
  void taskEndOfAnotherTaskIsAnError() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "worker", 0, 0, 0);
              s.taskBegin(1, 5);
              s.taskEnd(2, 6);
              s.taskEnd(3, 5);
            });
    assertOneError(verify(dir), "event #1", "task_end of task 6", "task_begin of task 5");
  }

  @Test
  void joinWaitLeftByAnotherKindOfExitIsAnError() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.joinWaitEnter(1, JOIN_SITE, 9);
              s.waitExit(2, JOIN_SITE);
              s.joinWaitExit(3, JOIN_SITE);
            });
    assertOneError(
        verify(dir), "wait_exit of region 5", "innermost open construct is join_wait_enter");
  }

  @Test
  void undefinedRegionIsDamage() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.enter(1, 99);
              s.exit(2, 99);
              s.enter(3, 0); // region 0: unknown call site, allowed
              s.exit(4, 0);
            });
    assertDamaged(verify(dir), "000001.wev: event at byte 45: region 99 is not defined");
  }

  @Test
  void threadThatEndsWithConstructsOpenIsAnError() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.enter(1, WORK);
              s.threadEnd(2);
            });
    assertOneError(verify(dir), "thread_end with 1 construct(s) still open", "enter of region 1");
  }

  @Test
  void cutTraceWithOpenConstructsIsOkWithWarnings() throws IOException {
    Path dir =
        build(
            false,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.threadBegin(0);
              s.enter(1, WORK);
              s.lockRequest(2, LOCK_SITE, LOCK);
            });
    TraceVerifier.VerifyReport r = verify(dir);
    assertTrue(r.ok(), r.errors().toString());
    assertTrue(r.cut());
    String all = String.join("\n", r.warnings());
    assertTrue(all.contains("not closed cleanly"), all);
    assertTrue(all.contains("1 construct(s) still open"), all);
    assertTrue(all.contains("at the cut end of the trace"), all);
    assertTrue(all.contains("lock_request of lock 10 (event #2) never acquired"), all);
  }

  @Test
  void timeGoingBackBetweenBlocksIsDamage() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 1000);
              for (int i = 0; i < 15_000; i++) {
                s.enter(1000 + 10 * i, WORK);
                s.exit(1005 + 10 * i, WORK);
              }
            });
    // The second block (after the 64 KiB first window) claims to start at time 0.
    Path file = TraceFiles.streamFile(dir, 1);
    long second = TraceFiles.EVENTS_HEADER_SIZE + 64 * 1024;
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(b, second);
      assertEquals(TraceFiles.CODE_BLOCK, b.get(0) & 0xFF, "a second block exists");
      ch.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 0), second + 5);
    }
    // The first block's checksum no longer matches (its seal covers the bytes before its trailer,
    // not the next block); the second block, unsealed, is checked against the STREAM_END record.
    TraceVerifier.VerifyReport r = verify(dir);
    assertDamaged(r, "000001.wev: block at byte " + second + ": ");
  }

  @Test
  void corruptStreamIsDamage() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.enter(1, WORK);
              s.exit(2, WORK);
            });
    Path file = TraceFiles.streamFile(dir, 1);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(
          ByteBuffer.wrap(new byte[] {(byte) 0x66}),
          TraceFiles.EVENTS_HEADER_SIZE + TraceFiles.BLOCK_HEADER_SIZE + 3);
    }
    TraceVerifier.VerifyReport r = verify(dir);
    assertDamaged(r, "000001.wev: block at byte 32: checksum mismatch (2 events lost)");
    assertEquals(0, r.events());
  }

  @Test
  void messagesAreCappedButCounted() throws IOException {
    Path dir =
        build(
            true,
            w -> {
              StreamWriter s = w.openStream(1, "main", 0, 0, 0);
              s.threadBegin(0);
              for (int i = 1; i <= 500; i++) {
                s.exit(i, WORK);
              }
            });
    TraceVerifier.VerifyReport r = verify(dir);
    assertEquals(TraceVerifier.MAX_MESSAGES + 1, r.errors().size());
    assertEquals("... and 300 more errors", r.errors().get(TraceVerifier.MAX_MESSAGES));
  }
}
