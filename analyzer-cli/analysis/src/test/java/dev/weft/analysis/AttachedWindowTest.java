package dev.weft.analysis;

import static dev.weft.analysis.Check.severity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An attached recording is analysed from when the agent had woven the classes loaded before the
 * attach (attribute {@code agent.recording_from}): before, the threads ran code the recording could
 * not see, and their time must not count as seen to run or to wait.
 */
class AttachedWindowTest {
  private static final long MS = 1_000_000;

  @TempDir Path tmp;

  /**
   * Thread a holds a monitor from 100 to 700 ms; b asks for it at 200 ms and gets it at 700 ms (500
   * ms of contention), and holds it to 800 ms. The trace ends at 1 s.
   */
  private Path trace(String name, String... attributes) throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve(name));
    int sync = f.region("sync", ConstructKind.MONITOR, 30);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    a.lockRequest(100 * MS, sync, 9);
    a.lockAcquired(100 * MS, 9, 0);
    b.lockRequest(200 * MS, sync, 9);
    a.lockReleased(700 * MS, 9);
    b.lockAcquired(700 * MS, 9, 0);
    b.lockReleased(800 * MS, 9);
    for (int i = 0; i < attributes.length; i += 2) {
      f.writer.defineAttribute(attributes[i], attributes[i + 1]);
    }
    return f.close(1000 * MS);
  }

  @Test
  void withoutTheAttributeTheWholeTraceIsAnalysed() throws IOException {
    AnalysisResult r = Analyzer.analyze(trace("whole", "agent.attached", "true"));
    assertEquals(1000 * MS, r.trace().durationNs());
    assertEquals(500 * MS, severity(r, "lock_contention"));
    assertEquals(2000 * MS, severity(r, "time"));
  }

  @Test
  void theTimeTheAgentSpentWeavingIsLeftOut() throws IOException {
    Path dir =
        trace("woven", "agent.attached", "true", "agent.recording_from", Long.toString(500 * MS));
    AnalysisResult r = Analyzer.analyze(dir);
    assertEquals(new AnalysisResult.Window(500 * MS, 1000 * MS), r.trace().window());
    assertEquals(500 * MS, r.trace().durationNs());
    // b's wait began before: only its part after the start counts, as a's hold.
    assertEquals(200 * MS, severity(r, "lock_contention"));
    assertEquals(1000 * MS, severity(r, "time"));
    List<String> unseen = r.trace().notSeenWhenAttached();
    assertTrue(
        unseen
            .get(0)
            .startsWith(
                "the first 0.50 s after the attach, while the agent wove the classes loaded"
                    + " before it"),
        unseen.toString());

    // The summary's window is the analysis's.
    try (Trace t = Trace.open(dir)) {
      RunWindow w = new RunWindow(t.definitions());
      w.stream(1, 100 * MS, false, 700 * MS);
      w.stream(2, 200 * MS, false, 800 * MS);
      assertEquals(new AnalysisResult.Window(500 * MS, 1000 * MS), w.window());
    }
  }

  @Test
  void aRecordingStartedWithTheJvmIgnoresTheAttribute() throws IOException {
    AnalysisResult r =
        Analyzer.analyze(trace("premain", "agent.recording_from", Long.toString(500 * MS)));
    assertEquals(1000 * MS, r.trace().durationNs());
    assertEquals(500 * MS, severity(r, "lock_contention"));
  }
}
