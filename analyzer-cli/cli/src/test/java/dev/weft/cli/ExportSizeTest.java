package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.EventCursor;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.ProcessDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Chrome export's size per Weft event, on a synthetic trace with the mix of a pool program
 * (tasks submitted by main from inside a traced method, run by four workers that lock, sleep and
 * meet at a barrier; every task crosses threads, so every task has an arrow) over two seconds, so
 * that timestamps have their usual width. Prints the figure; the goal is at most 60 bytes per
 * event. analyzer-cli/export-bench.sh measures recorded test programs.
 */
class ExportSizeTest {
  private static final int WORKERS = 4;
  private static final int TASKS_PER_WORKER = 2_000;

  @TempDir Path tmp;

  @Test
  void atMostSixtyBytesPerEvent() throws Exception {
    Path trace = mix(tmp.resolve("mix"));
    long events = 0;
    try (Trace t = Trace.open(trace)) {
      EventCursor c = t.events();
      while (c.next()) {
        events++;
      }
    }
    Path out = tmp.resolve("mix.json");
    Cli.Result r = Cli.run("export", trace.toString(), "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    double perEvent = (double) Files.size(out) / events;
    System.out.printf(
        Locale.ROOT,
        "chrome export: %d events, %d bytes, %.1f bytes per event%n",
        events,
        Files.size(out),
        perEvent);
    assertTrue(perEvent <= 60, perEvent + " bytes per event");
    assertTrue(
        r.err().contains(String.format(Locale.ROOT, "%.1f bytes per event", perEvent)), r.err());
  }

  private static Path mix(Path dir) throws Exception {
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.defineProcess(new ProcessDef(31337, "host", "17", "vm", 4, "java App", "app.App", ""));
      w.defineRegion(region(1, ConstructKind.FORK_JOIN_POOL, "ExecutorService.submit", 20));
      w.defineRegion(region(2, ConstructKind.TRACED_METHOD, "Worker.compute", 40));
      w.defineRegion(region(3, ConstructKind.REENTRANT_LOCK, "ReentrantLock.lock", 55));
      w.defineRegion(region(4, ConstructKind.SLEEP, "Thread.sleep", 61));
      w.defineRegion(region(5, ConstructKind.CYCLIC_BARRIER, "CyclicBarrier.await", 70));
      w.defineRegion(region(6, ConstructKind.TRACED_METHOD, "App.run", 12));
      w.definePool(new PoolDef(1, ConstructKind.EXECUTOR, "pool-1", WORKERS));
      w.defineObject(new ObjectDef(77, ConstructKind.REENTRANT_LOCK, "ReentrantLock", 0));
      w.defineObject(new ObjectDef(88, ConstructKind.CYCLIC_BARRIER, "CyclicBarrier", WORKERS));
      StreamWriter main = w.openStream(1, "main", 0, 0, 0);
      List<StreamWriter> workers = new ArrayList<>();
      for (int i = 0; i < WORKERS; i++) {
        workers.add(w.openStream(10 + i, "pool-1-thread-" + (i + 1), 0, 1, 0));
      }
      main.threadBegin(0);
      main.enter(0, 6); // main submits from inside its own code
      long task = 1;
      for (int k = 0; k < TASKS_PER_WORKER; k++) {
        long t0 = 1_000 + k * 1_000_000L + (k * 7_919L) % 997; // a round per ms, not round numbers
        for (int i = 0; i < WORKERS; i++) {
          main.taskCreate(t0 + i * 1_000, 1, task + i, 1);
        }
        for (int i = 0; i < WORKERS; i++) {
          StreamWriter s = workers.get(i);
          long t = t0 + 20_000 + i * 7_013;
          s.taskBegin(t, task + i);
          s.enter(t + 1_000, 2);
          s.lockRequest(t + 50_000, 3, 77);
          s.lockAcquired(t + 60_000 + i * 3_000, 77, 0);
          s.lockReleased(t + 90_000 + i * 3_000, 77);
          s.waitEnter(t + 100_000, 4, WaitKind.SLEEP);
          s.waitExit(t + 600_000, 4);
          if (k % 50 == 49) {
            s.barrierEnter(t + 610_000, 5, 88, k / 50);
            s.barrierExit(t + 700_000, 5, 88, k / 50, 0);
          }
          s.exit(t + 800_000, 2);
          s.taskEnd(t + 810_000, task + i);
        }
        task += WORKERS;
      }
      long end = 1_000 + TASKS_PER_WORKER * 1_000_000L;
      for (StreamWriter s : workers) {
        s.threadEnd(end);
      }
      main.exit(end, 6);
      main.threadEnd(end);
      w.close(end);
    }
    return dir;
  }

  private static RegionDef region(int id, ConstructKind kind, String name, int line) {
    return new RegionDef(id, kind, name, "app.Worker", "run", "Worker.java", line, 0);
  }
}
