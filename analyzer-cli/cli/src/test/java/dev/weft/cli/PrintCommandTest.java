package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ClockDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrintCommandTest {
  @TempDir Path tmp;
  Path trace;

  @BeforeEach
  void writeTrace() throws Exception {
    trace = TestTraces.sample(tmp.resolve("trace"));
  }

  @Test
  void printsEveryEventInTimeOrderWithRelativeTimes() {
    Cli.Result r = Cli.run("print", trace.toString());
    assertEquals(0, r.exit(), r.toString());
    List<String> lines = r.outLines();
    assertEquals(TestTraces.MAIN_EVENTS + TestTraces.WORKER_EVENTS, lines.size(), r.out());
    assertTrue(lines.get(0).startsWith("    0.000000 ms  main "), lines.get(0));
    assertTrue(lines.get(0).contains("thread_begin"));
    double previous = -1;
    for (String line : lines) {
      double ms = Double.parseDouble(line.strip().split(" ")[0]);
      assertTrue(ms >= previous, "out of order: " + line);
      previous = ms;
    }
    // The last event is main's thread_end at 13100 ns; the trace starts at 1000 ns.
    assertTrue(lines.get(lines.size() - 1).startsWith("    0.012100 ms  main "), r.out());
    assertEquals("", r.err());
  }

  @Test
  void namesFieldsRegionsPoolsLocksAndFlags() {
    String out = Cli.run("print", trace.toString()).out();
    assertTrue(out.contains("enter            region=work @ Demo.java:10-20"), out);
    assertTrue(
        out.contains(
            "fork             region=ForkJoinPool.invoke @ Demo.java:30 pool=ForkJoinPool-1"
                + " parallelism=2"),
        out);
    assertTrue(out.contains("lock_acquired    lock=0xabc (ReentrantLock) flags=none"), out);
    assertTrue(
        out.contains(
            "barrier_exit     region=CyclicBarrier.await @ Demo.java:50 barrier=0xbeef"
                + " (CyclicBarrier) generation=0 outcome=last"),
        out);
    assertTrue(out.contains("task_begin       task=0x77"), out);
    assertTrue(out.contains(TestTraces.WORKER + "  task_begin"), out);
  }

  /** A name longer than the name column (Pekko's dispatcher threads) still ends in a gap. */
  @Test
  void aLongThreadNameIsFollowedByAGap() throws Exception {
    String name = "bench-pekko.actor.default-dispatcher-12";
    Path dir = tmp.resolve("long");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      StreamWriter t = w.openStream(1, name, 0, 0, 1000);
      t.threadBegin(1000);
      t.threadEnd(2000);
      w.close(3000);
    }
    Cli.Result r = Cli.run("print", dir.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains(name + "  thread_begin"), r.out());
  }

  @Test
  void filtersByKindAndThread() {
    Cli.Result r = Cli.run("print", trace.toString(), "--kind", "lock_acquired,lock_released");
    assertEquals(0, r.exit(), r.toString());
    assertEquals(6, r.outLines().size(), r.out());
    assertTrue(
        r.outLines().stream()
            .allMatch(l -> l.contains(" lock_acquired ") || l.contains(" lock_released ")));

    r = Cli.run("print", trace.toString(), "--thread", TestTraces.WORKER);
    assertEquals(TestTraces.WORKER_EVENTS, r.outLines().size(), r.out());
    assertTrue(r.outLines().stream().allMatch(l -> l.contains(TestTraces.WORKER)));

    r = Cli.run("print", trace.toString(), "--thread", "main", "--kind", "lock_request");
    assertEquals(2, r.outLines().size(), r.out());
  }

  @Test
  void limitsAndTimeWindow() {
    Cli.Result r = Cli.run("print", trace.toString(), "--limit", "5");
    assertEquals(0, r.exit());
    assertEquals(5, r.outLines().size());

    // The trace starts at 1000 ns: events 1.5 to 4 µs after it are those at 2500..5000 ns.
    r = Cli.run("print", trace.toString(), "--from", "1.5us", "--to", "4000");
    assertEquals(0, r.exit(), r.toString());
    for (String line : r.outLines()) {
      double ms = Double.parseDouble(line.strip().split(" ")[0]);
      assertTrue(ms >= 0.0015 && ms <= 0.004, line);
    }
    assertEquals(3, r.outLines().size(), r.out()); // task_begin, lock_request, lock_released
  }

  @Test
  void unknownKindListsTheKinds() {
    Cli.Result r = Cli.run("print", trace.toString(), "--kind", "lock_aquired");
    assertEquals(2, r.exit());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(
        r.err().startsWith("weft: unknown event kind 'lock_aquired' (kinds: enter, exit,"),
        r.err());
    assertTrue(r.err().contains("lock_acquired"));
  }

  @Test
  void unknownThreadListsTheThreads() {
    Cli.Result r = Cli.run("print", trace.toString(), "--thread", "nobody");
    assertEquals(2, r.exit());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(r.err().contains("threads: main, " + TestTraces.WORKER), r.err());
  }

  @Test
  void badDurationIsAUsageError() {
    Cli.Result r = Cli.run("print", trace.toString(), "--from", "soon");
    assertEquals(2, r.exit());
    assertEquals(1, r.errLines().size(), r.err());
    assertTrue(
        r.err().contains("not a duration") && r.err().contains("weft print --help"), r.err());
  }
}
