package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The note comparing each thread's execution with the CPU and run-queue time the system counted for
 * it (THREAD_JVM_COUNTS' trailing fields).
 */
class CpuCrossCheckTest {
  @TempDir Path tmp;

  private static final long MS = 1_000_000;

  private static List<String> cpuNotes(Path dir) {
    return notes(dir, "off the CPU");
  }

  private static List<String> notes(Path dir, String containing) {
    return Analyzer.analyze(dir).notes().stream().filter(n -> n.contains(containing)).toList();
  }

  /** A thread that runs (no recorded wait) from 0 to {@code end}. */
  private static int running(TraceFixture f, String name, long end) {
    StreamWriter w = f.thread(name, 0);
    w.threadEnd(end);
    return w.id();
  }

  @Test
  void executionOffTheCpuAndOutOfTheRunQueueIsNamedPerThread() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int reader = running(f, "socket-reader", 1_000 * MS); // 10 ms CPU: blocked the rest
    int busy = running(f, "busy", 1_000 * MS); // CPU and run queue account for it
    int crowded = running(f, "crowded", 1_000 * MS); // mostly waiting for a core: not named
    int small = running(f, "small", 100 * MS); // 15 ms off the CPU: under MIN_NS
    int older = running(f, "older", 1_000 * MS); // no CPU figure (an older agent): not compared
    StreamWriter alive = f.thread("alive", 0); // at the close: CPU without the run queue
    f.writer.defineThreadJvmCounts(reader, 0, 0, 10 * MS, 5 * MS);
    f.writer.defineThreadJvmCounts(busy, 0, 0, 900 * MS, 95 * MS);
    f.writer.defineThreadJvmCounts(crowded, 0, 0, 400 * MS, 590 * MS);
    f.writer.defineThreadJvmCounts(small, 0, 0, 80 * MS, 5 * MS);
    f.writer.defineThreadJvmCounts(older, 0, 0);
    f.writer.defineThreadJvmCounts(alive.id(), 0, 0, 700 * MS, -1);
    Path dir = f.close(1_000 * MS);
    List<String> notes = cpuNotes(dir);
    assertEquals(
        List.of(
            "2 threads were off the CPU for 1.285 s that counts as execution here, in no recorded"
                + " wait (socket-reader 985.00 ms of 1.000 s (1.000 s on the critical path), alive"
                + " 300.00 ms of 1.000 s (run queue unknown)): I/O that Weft does not record"
                + " (socket channels, files, pipes), sleeping or waiting in native code, JVM"
                + " pauses such as garbage collection, or other waiting Weft does not record."
                + " The system counted that time"
                + " neither as CPU time nor as waiting for a core, so it is not work, though"
                + " execution and the critical path, where it runs through them, count it as such"
                + " (for threads whose run queue the agent could not read, part of that time may"
                + " be waiting for a core on a busy host)"),
        notes);
    assertEquals(
        List.of(
            "1 thread was runnable but waiting for a core for 590.00 ms (crowded 590.00 ms of"
                + " 1.000 s): more threads were ready to run than the host had cores for (this"
                + " program's or other processes'). That time counts as execution, or as the wait"
                + " a thread was in, so both read longer than the program's own work and waits"),
        notes(dir, "waiting for a core for"),
        "busy's 95 ms are under a fifth of its life");
  }

  /**
   * Threads that began before the agent's baseline (an attach) have their CPU time from it on: the
   * time before it is not held against them. Neither thread is on the critical path here (a third
   * one, fully busy, is), so the note does not speak of it.
   */
  @Test
  void threadsFromBeforeTheBaselineCountFromIt() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int reader = running(f, "old-reader", 1_000 * MS); // no CPU since the baseline: 600 ms off
    int worker = running(f, "old-worker", 1_000 * MS); // busy since the baseline: not named
    StreamWriter main = f.thread("main", 0);
    main.threadEnd(1_200 * MS);
    f.writer.defineAttribute(CpuCrossCheck.TIMES_FROM, Long.toString(400 * MS));
    f.writer.defineThreadJvmCounts(reader, 0, 0, 0, -1);
    f.writer.defineThreadJvmCounts(worker, 0, 0, 600 * MS, -1);
    f.writer.defineThreadJvmCounts(main.id(), 0, 0, 1_200 * MS, 0);
    List<String> notes = cpuNotes(f.close(1_200 * MS));
    assertEquals(1, notes.size(), notes.toString());
    assertTrue(
        notes
            .get(0)
            .startsWith(
                "1 thread was off the CPU for 600.00 ms that counts as execution here, in no"
                    + " recorded wait (old-reader 600.00 ms of 1.000 s (run queue unknown)):"),
        notes.get(0));
    assertTrue(notes.get(0).contains(", though execution counts it as such ("), notes.get(0));
  }

  /**
   * Threads that began before an attach and measured their own CPU and run-queue times from their
   * first event on: the time before that is not held against them (not the baseline's, which is
   * earlier), and a thread that waited for a core is named as such, not as off the CPU with its run
   * queue unknown.
   */
  @Test
  void threadsFromBeforeAnAttachCountFromTheirFirstEvent() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int crowded = running(f, "old-crowded", 1_000 * MS); // 300 CPU + 400 queued of its 700 ms
    int blocked = running(f, "old-blocked", 1_000 * MS); // 60 of its 700 ms: 640 ms off the CPU
    StreamWriter main = f.thread("main", 0);
    main.threadEnd(1_200 * MS);
    f.writer.defineAttribute(CpuCrossCheck.TIMES_FROM, Long.toString(100 * MS));
    f.writer.defineThreadJvmCounts(crowded, 0, 0, 300 * MS, 400 * MS, 300 * MS);
    f.writer.defineThreadJvmCounts(blocked, 0, 0, 50 * MS, 10 * MS, 300 * MS);
    f.writer.defineThreadJvmCounts(main.id(), 0, 0, 1_200 * MS, 0);
    Path dir = f.close(1_200 * MS);
    List<String> off = cpuNotes(dir);
    assertEquals(1, off.size(), off.toString());
    assertTrue(
        off.get(0)
            .startsWith(
                "1 thread was off the CPU for 640.00 ms that counts as execution here, in no"
                    + " recorded wait (old-blocked 640.00 ms of 1.000 s):"),
        off.get(0));
    List<String> queued = notes(dir, "waiting for a core for");
    assertEquals(1, queued.size(), queued.toString());
    assertTrue(queued.get(0).contains("(old-crowded 400.00 ms of 1.000 s)"), queued.get(0));
  }

  /** Time in a recorded wait is not execution: a thread that only waited there is not named. */
  @Test
  void recordedWaitsAreNotExecution() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int sleep = f.region("Thread.sleep", ConstructKind.SLEEP, 20);
    StreamWriter sleeper = f.thread("sleeper", 0);
    sleeper.waitEnter(1 * MS, sleep, WaitKind.SLEEP);
    sleeper.waitExit(991 * MS, sleep);
    sleeper.threadEnd(1_000 * MS);
    f.writer.defineThreadJvmCounts(sleeper.id(), 0, 1, 5 * MS, 1 * MS);
    assertEquals(List.of(), cpuNotes(f.close(1_000 * MS)));
  }
}
