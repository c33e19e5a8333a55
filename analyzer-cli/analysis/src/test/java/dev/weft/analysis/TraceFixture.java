package dev.weft.analysis;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Writes hand-built traces with explicit timestamps for the analyzer's tests. Regions are in {@code
 * Main.java}, at the line given; their labels are {@code "name @ Main.java:line"}.
 */
final class TraceFixture {
  final Path dir;
  final TraceWriter writer;
  private int nextRegion = 1;
  private long nextJavaId = 1;

  private TraceFixture(Path dir) throws IOException {
    this.dir = dir;
    this.writer = TraceWriter.create(dir, TraceWriter.Options.defaults().withWindows(4096, 8192));
    writer.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
  }

  static TraceFixture create(Path dir) {
    try {
      return new TraceFixture(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Defines a region; returns its id. */
  int region(String name, ConstructKind kind, int line) {
    int id = nextRegion++;
    try {
      writer.defineRegion(new RegionDef(id, kind, name, "app.Main", "run", "Main.java", line, 0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return id;
  }

  /** Defines a call site inside a JDK class (no source file, as the agent records it). */
  int jdkRegion(String name, ConstructKind kind, String className) {
    int id = nextRegion++;
    try {
      writer.defineRegion(new RegionDef(id, kind, name, className, "push", "", 0, 0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return id;
  }

  static String label(String name, int line) {
    return name + " @ Main.java:" + line;
  }

  /** The call-path frame of a task created at a {@link #region} of this line. */
  static String task(int line) {
    return "task Main.run:" + line;
  }

  void pool(int id, String name, int parallelism) {
    try {
      writer.definePool(new PoolDef(id, ConstructKind.FORK_JOIN_POOL, name, parallelism));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void object(long id, ConstructKind kind, int parties) {
    try {
      writer.defineObject(new ObjectDef(id, kind, kind.id(), parties));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A thread that is no pool's worker, defined (alive) from {@code start}. */
  StreamWriter thread(String name, long start) {
    return worker(name, 0, start);
  }

  /** A worker of pool {@code pool}, defined from {@code start}. */
  StreamWriter worker(String name, int pool, long start) {
    return open(name, 0, pool, start);
  }

  /** A daemon thread (the JVM does not wait for it to end), defined from {@code start}. */
  StreamWriter daemon(String name, long start) {
    return open(name, ThreadDef.DAEMON, 0, start);
  }

  private StreamWriter open(String name, int flags, int pool, long start) {
    try {
      return writer.openStream(nextJavaId++, name, flags, pool, start);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes the trace cleanly at {@code end} and returns its directory. */
  Path close(long end) {
    try {
      writer.close(end);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dir;
  }

  /** Leaves the trace as a killed process would: no END record. */
  Path abandon() {
    return dir;
  }

  /**
   * Threads a, b and c meet at a CyclicBarrier (call site line 40) in three rounds of 1000; thread
   * i works 900 in round i and 100 in the others, so the last arrival rotates and every thread
   * waits 800 + 800 + 0 for it, plus 100 of release latency each round.
   */
  static Path rotatingStraggler(Path dir) {
    TraceFixture f = create(dir);
    int await = f.region("CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, 40);
    f.object(100, ConstructKind.CYCLIC_BARRIER, 3);
    StreamWriter[] s = {f.thread("a", 0), f.thread("b", 0), f.thread("c", 0)};
    for (int round = 0; round < 3; round++) {
      long start = round * 1000L;
      for (int i = 0; i < 3; i++) {
        s[i].barrierEnter(start + (i == round ? 900 : 100), await, 100, round);
      }
      for (int i = 0; i < 3; i++) {
        s[i].barrierExit(start + 1000, await, 100, round, i == round ? BarrierOutcome.LAST : 0);
      }
    }
    for (StreamWriter w : s) {
      w.threadEnd(3000);
    }
    return f.close(3000);
  }
}
