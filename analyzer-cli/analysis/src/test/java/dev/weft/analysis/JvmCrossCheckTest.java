package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The note comparing the JVM's monitor-block counts (THREAD_JVM_COUNTS) with recorded waits. */
class JvmCrossCheckTest {
  @TempDir Path tmp;

  private static final long MONITOR = 11;
  private static final long LOCK = 12;

  private static List<String> jvmNotes(Path dir) {
    return Analyzer.analyze(dir).notes().stream()
        .filter(n -> n.startsWith("the JVM counted"))
        .toList();
  }

  /** Threads doing only work; the JVM counted blocks for some. */
  private static TraceFixture workers(Path dir, String... names) {
    TraceFixture f = TraceFixture.create(dir);
    int work = f.region("work", ConstructKind.USER_REGION, 10);
    for (String name : names) {
      StreamWriter w = f.thread(name, 0);
      w.enter(10, work);
      w.exit(1_000_000, work);
    }
    return f;
  }

  @Test
  void blocksTheTraceDoesNotShowAreNamedPerThread() throws IOException {
    TraceFixture f = workers(tmp.resolve("t"), "reader-1", "reader-2", "reader-3", "writer");
    f.writer.defineThreadJvmCounts(1, 20, 5);
    f.writer.defineThreadJvmCounts(2, 15, 0);
    f.writer.defineThreadJvmCounts(3, 18, 0);
    f.writer.defineThreadJvmCounts(4, 0, 0);
    List<String> notes = jvmNotes(f.close(2_000_000));
    assertEquals(
        List.of(
            "the JVM counted 53 monitor blocks on 3 threads that Weft did not record (reader-1 20,"
                + " reader-3 18, reader-2 15): contended synchronized blocks or methods in code"
                + " Weft does not weave (JDK classes, excluded classes or construct families, class"
                + " loading); their waiting counts as execution here"),
        notes);
  }

  @Test
  void waitsTheTraceDoesNotShowAreNamedPerThreadButNotForPoolWorkers() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int take = f.region("BlockingQueue.take", ConstructKind.BLOCKING_QUEUE, 40);
    int lock = f.region("ReentrantLock.lock", ConstructKind.REENTRANT_LOCK, 41);
    f.object(LOCK, ConstructKind.REENTRANT_LOCK, 0);
    f.pool(1, "pool-1", 1);
    StreamWriter consumer = f.thread("consumer", 0); // nothing recorded: 50 waits unseen
    StreamWriter taker = f.thread("taker", 0); // 20 recorded takes: 45 waits are within twice
    StreamWriter locker = f.thread("locker", 0); // 10 lock requests: 31 waits, 11 beyond twice
    StreamWriter worker = f.worker("pool-1-thread-1", 1, 0); // waits for tasks in JDK code
    for (int i = 0; i < 20; i++) {
      taker.waitEnter(100 + i * 100, take, WaitKind.QUEUE);
      taker.waitExit(150 + i * 100, take);
    }
    for (int i = 0; i < 10; i++) {
      locker.lockRequest(100 + i * 100, lock, LOCK);
      locker.lockAcquired(150 + i * 100, LOCK, 0);
      locker.lockReleased(160 + i * 100, LOCK);
    }
    for (StreamWriter s : new StreamWriter[] {consumer, taker, locker, worker}) {
      s.threadEnd(1_000_000);
    }
    f.writer.defineThreadJvmCounts(1, 0, 50);
    f.writer.defineThreadJvmCounts(2, 0, 45);
    f.writer.defineThreadJvmCounts(3, 0, 31);
    f.writer.defineThreadJvmCounts(4, 0, 500);
    List<String> notes = jvmNotes(f.close(2_000_000));
    assertEquals(
        List.of(
            "the JVM counted at least 61 waits (parks, sleeps, Object.wait) on 2 threads that"
                + " Weft did not record (consumer 50, locker 11): waiting in code Weft does not"
                + " weave (a JDK class's own waiting that no construct family covers, excluded"
                + " classes or construct families, a synchronizer of a kind Weft does not know);"
                + " that waiting counts as execution here"),
        notes);
  }

  @Test
  void recordedMonitorWaitsAccountForTheJvmsBlocks() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 30);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 31);
    int lock = f.region("ReentrantLock.lock", ConstructKind.REENTRANT_LOCK, 32);
    f.object(MONITOR, ConstructKind.MONITOR, 0);
    f.object(LOCK, ConstructKind.REENTRANT_LOCK, 0);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    long t = 100;
    // b waits for a's monitor 6 times (2 µs each), and once re-enters it after Object.wait.
    for (int i = 0; i < 6; i++, t += 10_000) {
      waitBehind(a, b, sync, t, 100, 2_000, 2_100);
    }
    b.lockRequest(t, sync, MONITOR);
    b.lockAcquired(t + 10, MONITOR, 0);
    b.lockReleased(t + 20, MONITOR);
    b.waitEnter(t + 20, wait, WaitKind.OBJECT_WAIT);
    b.waitExit(t + 5_000, wait);
    b.lockRequest(t + 5_000, wait, MONITOR);
    b.lockAcquired(t + 5_010, MONITOR, LockFlags.AFTER_WAIT);
    b.lockReleased(t + 5_020, MONITOR);
    // A contended ReentrantLock is no monitor: it does not account for monitor blocks.
    t += 10_000;
    a.lockRequest(t, lock, LOCK);
    a.lockAcquired(t, LOCK, 0);
    b.lockRequest(t + 10, lock, LOCK);
    a.lockReleased(t + 50_000, LOCK);
    b.lockAcquired(t + 50_100, LOCK, 0);
    b.lockReleased(t + 50_200, LOCK);
    // b: 7 recorded (6 contended entries, one wait exit) + the slack of 3 = 10 accounted for.
    f.writer.defineThreadJvmCounts(a.id(), 3, 0);
    f.writer.defineThreadJvmCounts(b.id(), 7 + JvmCrossCheck.SLACK, 1);
    Path dir = f.close(1_000_000);
    assertEquals(List.of(), jvmNotes(dir));

    TraceFixture g = TraceFixture.create(tmp.resolve("u"));
    int sync2 = g.region("synchronized", ConstructKind.MONITOR, 30);
    g.object(MONITOR, ConstructKind.MONITOR, 0);
    StreamWriter c = g.thread("c", 0);
    // Uncontended, quick entries do not account for blocks.
    for (int i = 0; i < 10; i++) {
      c.lockRequest(100 + i * 1_000, sync2, MONITOR);
      c.lockAcquired(100 + i * 1_000 + 200, MONITOR, 0);
      c.lockReleased(100 + i * 1_000 + 300, MONITOR);
    }
    g.writer.defineThreadJvmCounts(c.id(), JvmCrossCheck.SLACK + 1, 0);
    List<String> notes = jvmNotes(g.close(1_000_000));
    assertEquals(1, notes.size());
    assertTrue(
        notes.get(0).startsWith("the JVM counted 4 monitor blocks on 1 thread "), notes.get(0));
  }

  /**
   * A pool worker of a library's own waiting for its next task in {@code Object.wait} (Quartz's:
   * kind next_task, its monitor's release recorded just before) re-enters the monitor at the wait's
   * end as any {@code Object.wait} does: each such wait accounts for a block. A take right after a
   * {@code synchronized} block's end accounts for one too (the two read alike); a next_task wait
   * after anything else does not.
   */
  @Test
  void idleWaitsOnAMonitorAccountForBlocks() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 30);
    int wait = f.region("Object.wait", ConstructKind.OBJECT_WAIT, 31);
    int work = f.region("work", ConstructKind.USER_REGION, 32);
    f.object(MONITOR, ConstructKind.MONITOR, 0);
    StreamWriter worker = f.thread("worker", 0);
    StreamWriter other = f.thread("other", 0);
    long t = 100;
    for (int i = 0; i < 6; i++, t += 10_000) {
      worker.lockRequest(t, sync, MONITOR);
      worker.lockAcquired(t + 10, MONITOR, 0);
      worker.lockReleased(t + 20, MONITOR);
      worker.waitEnter(t + 20, wait, WaitKind.NEXT_TASK);
      worker.waitExit(t + 5_000, wait);
      worker.lockRequest(t + 5_000, wait, MONITOR);
      worker.lockAcquired(t + 5_010, MONITOR, LockFlags.AFTER_WAIT);
      worker.lockReleased(t + 5_020, MONITOR);
      other.enter(t, work);
      other.exit(t + 10, work);
      other.waitEnter(t + 20, wait, WaitKind.NEXT_TASK);
      other.waitExit(t + 5_000, wait);
    }
    f.writer.defineThreadJvmCounts(worker.id(), 6 + JvmCrossCheck.SLACK, 6);
    f.writer.defineThreadJvmCounts(other.id(), 1 + JvmCrossCheck.SLACK, 6);
    List<String> notes = jvmNotes(f.close(1_000_000));
    assertEquals(1, notes.size(), notes.toString());
    assertTrue(notes.get(0).contains("other"), notes.get(0));
    assertTrue(!notes.get(0).contains("worker"), notes.get(0));
  }

  /**
   * The JVM's slow path can acquire at once: a block may last well under 1 µs. A short entry that
   * another thread was in the way of (holding the monitor at the request, or taking it first and
   * releasing it while the request waited) accounts for a block; a short entry with no one in the
   * way does not.
   */
  @Test
  void shortEntriesWithAnotherThreadInTheWayAccountForBlocks() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sync = f.region("synchronized", ConstructKind.MONITOR, 30);
    f.object(MONITOR, ConstructKind.MONITOR, 0);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    long t = 100;
    for (int i = 0; i < 5; i++, t += 10_000) {
      waitBehind(a, b, sync, t, 50, 300, 450); // held by a at b's request; 400 ns of waiting
    }
    for (int i = 0; i < 5; i++, t += 10_000) {
      // free at b's request, but a takes it first and releases it while b waits
      b.lockRequest(t, sync, MONITOR);
      a.lockRequest(t + 10, sync, MONITOR);
      a.lockAcquired(t + 20, MONITOR, 0);
      a.lockReleased(t + 300, MONITOR);
      b.lockAcquired(t + 400, MONITOR, 0);
      b.lockReleased(t + 500, MONITOR);
    }
    for (int i = 0; i < 5; i++, t += 10_000) {
      // no one in the way: does not account for a block
      b.lockRequest(t, sync, MONITOR);
      b.lockAcquired(t + 400, MONITOR, 0);
      b.lockReleased(t + 500, MONITOR);
    }
    f.writer.defineThreadJvmCounts(a.id(), 0, 0);
    f.writer.defineThreadJvmCounts(b.id(), 10 + JvmCrossCheck.SLACK + 1, 0);
    List<String> notes = jvmNotes(f.close(1_000_000));
    assertEquals(1, notes.size(), notes.toString());
    assertTrue(
        notes.get(0).startsWith("the JVM counted 4 monitor blocks on 1 thread "), notes.get(0));
  }

  /**
   * {@code a} takes the monitor at {@code t}; {@code b} requests it {@code request} ns later,
   * {@code a} releases it at {@code release} and {@code b} holds it from {@code acquired} for 100
   * ns.
   */
  private static void waitBehind(
      StreamWriter a, StreamWriter b, int sync, long t, long request, long release, long acquired) {
    a.lockRequest(t, sync, MONITOR);
    a.lockAcquired(t + 10, MONITOR, 0);
    b.lockRequest(t + request, sync, MONITOR);
    a.lockReleased(t + release, MONITOR);
    b.lockAcquired(t + acquired, MONITOR, 0);
    b.lockReleased(t + acquired + 100, MONITOR);
  }

  @Test
  void noRecordNoNote() throws IOException {
    TraceFixture f = workers(tmp.resolve("t"), "a", "b");
    Path dir = f.close(2_000_000);
    assertEquals(List.of(), jvmNotes(dir));
    assertEquals(List.of(), uncheckedNotes(dir), "the agent counted nothing: said elsewhere");
  }

  private static List<String> uncheckedNotes(Path dir) {
    return Analyzer.analyze(dir).notes().stream()
        .filter(n -> n.contains("not cross-checked with the JVM's own monitor counts"))
        .toList();
  }

  @Test
  void threadsTheAgentCouldNotCountAreNamed() throws IOException {
    // An attached recording: cache-reader-1 and -2 ended during it, in a run() entered before
    // the attach, so the agent never counted them; main was counted at the close.
    TraceFixture f = workers(tmp.resolve("t"), "main", "cache-reader-1", "cache-reader-2");
    f.writer.defineAttribute("agent.attached", "true");
    f.writer.defineThreadJvmCounts(1, 0, 1);
    Path dir = f.close(2_000_000);
    assertEquals(
        List.of(
            "2 threads were not cross-checked with the JVM's own monitor counts (cache-reader-1,"
                + " cache-reader-2): they ended where the agent could not count them (a run() that"
                + " began before the attach, a pool worker retiring, or before the counts were"
                + " available); monitor blocks of theirs in code Weft does not weave are not"
                + " known"),
        uncheckedNotes(dir));
    assertEquals(List.of(), jvmNotes(dir));
  }

  @Test
  void everyThreadCountedNoUncheckedNote() throws IOException {
    TraceFixture f = workers(tmp.resolve("t"), "a", "b");
    f.writer.defineThreadJvmCounts(1, 0, 0);
    f.writer.defineThreadJvmCounts(2, 0, 0);
    assertEquals(List.of(), uncheckedNotes(f.close(2_000_000)));
  }

  @Test
  void threadsWithDroppedEventsAreNotCompared() throws IOException {
    Path dir = tmp.resolve("t");
    // Room for one window only: the second thread's events are all dropped.
    try (TraceWriter w =
        TraceWriter.create(
            dir, TraceWriter.Options.defaults().withWindows(4096, 4096).withMaxBytes(4096))) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.defineRegion(
          new RegionDef(
              1, ConstructKind.USER_REGION, "work", "app.Main", "run", "Main.java", 1, 0));
      StreamWriter a = w.openStream(1, "a", 0, 0, 0);
      StreamWriter b = w.openStream(2, "b", 0, 0, 0);
      for (StreamWriter s : List.of(a, b)) {
        s.enter(10, 1);
        s.exit(1_000, 1);
        w.defineThreadJvmCounts(s.id(), 100, 0);
      }
      assertTrue(b.dropped() > 0);
    }
    List<String> notes = jvmNotes(dir);
    assertEquals(1, notes.size(), notes.toString());
    assertTrue(notes.get(0).contains("(a 100)"), notes.get(0));
  }

  @Test
  void attachedTracesSayWhatAttachingLeavesOut() throws IOException {
    TraceFixture f = workers(tmp.resolve("t"), "a");
    f.writer.defineAttribute("agent.attached", "true");
    f.writer.defineThreadJvmCounts(1, 10, 30);
    List<String> notes = jvmNotes(f.close(2_000_000));
    assertEquals(2, notes.size(), notes.toString());
    assertTrue(
        notes.get(0).contains("synchronized methods of classes loaded before the attach"),
        notes.get(0));
    assertTrue(
        notes.get(1).contains("(a 30)")
            && notes.get(1).contains("when attached, also code that was running at the attach"),
        notes.get(1));
  }
}
