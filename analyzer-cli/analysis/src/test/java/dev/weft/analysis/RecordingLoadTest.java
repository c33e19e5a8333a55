package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The note on what the recording cost: for threads dense with events only, naming where. */
class RecordingLoadTest {
  @TempDir Path tmp;

  private static final long MONITOR = 11;

  /**
   * {@code pairs} monitor pairs spread evenly over {@code lifeNs}, at a hot site, and one at a cold
   * site; returns the analysis' notes about the recording.
   */
  private List<String> notes(String dir, int pairs, long lifeNs) {
    TraceFixture f = TraceFixture.create(tmp.resolve(dir));
    int hot = f.region("synchronized", ConstructKind.MONITOR, 30);
    int cold = f.region("synchronized", ConstructKind.MONITOR, 40);
    f.object(MONITOR, ConstructKind.MONITOR, 0);
    StreamWriter a = f.thread("reader", 0);
    a.lockRequest(1, cold, MONITOR);
    a.lockAcquired(1, MONITOR, 0);
    a.lockReleased(2, MONITOR);
    long step = lifeNs / (pairs + 1);
    for (int i = 1; i <= pairs; i++) {
      long t = i * step;
      a.lockRequest(t, hot, MONITOR);
      a.lockAcquired(t, MONITOR, 0);
      a.lockReleased(t + 1, MONITOR);
    }
    a.threadEnd(lifeNs);
    AnalysisResult r = Analyzer.analyze(f.close(lifeNs));
    return r.notes().stream().filter(n -> n.startsWith("the recording may have")).toList();
  }

  @Test
  void aThreadDenseWithEventsGetsANoteNamingTheSiteEnteredMost() {
    // 300,004 events (the thread end included) in 100 ms: at 30 ns each, 9 % of its time.
    List<String> notes = notes("dense", 100_000, 100_000_000L);
    assertEquals(1, notes.size(), notes.toString());
    String n = notes.get(0);
    assertTrue(n.contains("reader wrote 300,004 events in 100.00 ms"), n);
    assertTrue(n.contains("at least 9 % of its time"), n);
    assertTrue(n.contains("synchronized @ Main.java:30 (100,000 times)"), n);
    assertTrue(n.endsWith("exclude=app.Main"), n);
  }

  @Test
  void coarseThreadsAndShortTracesGetNone() {
    // The same events over 10 s: 0.09 %.
    assertEquals(List.of(), notes("coarse", 100_000, 10_000_000_000L));
    // Dense, but too few events to judge.
    assertEquals(List.of(), notes("few", 1_000, 1_000_000L));
  }
}
