package dev.weft.analysis;

import static dev.weft.analysis.Check.onThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.EventKind;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceFiles;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A platform thread hosted on an ended thread's file (FORMAT.md, "Hosted platform threads") is
 * analysed exactly as the same thread with a file of its own; a damaged host cuts it short too.
 */
class HostedThreadsTest {
  @TempDir Path tmp;

  /**
   * main holds monitor 9 from 100 to 500 and ends at 1000; t1 (50..95) works and ends; t2 begins at
   * 200 (on t1's file when hosted), waits for the monitor from 250 to 510, holds it to 600 and ends
   * at 700.
   */
  private TraceFixture write(Path dir, boolean hosted) {
    TraceFixture f = TraceFixture.create(dir);
    int work = f.region("work", ConstructKind.USER_REGION, 10);
    int sync = f.region("sync", ConstructKind.MONITOR, 11);
    StreamWriter main = f.thread("main", 0);
    StreamWriter t1 = f.thread("t1", 50);
    t1.threadBegin(50);
    t1.enter(60, work);
    t1.exit(90, work);
    t1.threadEnd(95);
    main.lockRequest(100, sync, 9);
    main.lockAcquired(100, 9, 0);
    main.enter(110, work);
    StreamWriter t2;
    TraceWriter.Hosted h = null;
    if (hosted) {
      f.writer.releaseStream(t1);
      h = f.writer.openHosted(3, "t2", 0, 0, 200);
      t2 = h.host();
    } else {
      t2 = f.thread("t2", 200);
    }
    t2.threadBegin(200);
    t2.lockRequest(250, sync, 9);
    main.exit(490, work);
    main.lockReleased(500, 9);
    t2.lockAcquired(510, 9, 0);
    t2.enter(520, work);
    t2.exit(590, work);
    t2.lockReleased(600, 9);
    t2.threadEnd(700);
    if (hosted) {
      f.writer.endHosted(h, 3, 700);
    }
    main.threadEnd(1000);
    return f;
  }

  @Test
  void aHostedThreadIsAnalysedAsTheSameThreadWithAFileOfItsOwn() {
    AnalysisResult own = Analyzer.analyze(write(tmp.resolve("own"), false).close(1000));
    AnalysisResult hosted = Analyzer.analyze(write(tmp.resolve("hosted"), true).close(1000));
    assertEquals(AnalysisResult.Status.COMPLETE, hosted.status());
    assertEquals(own.trace().events(), hosted.trace().events());
    assertEquals(3, hosted.trace().threads());
    assertEquals(260, onThread(hosted, "monitor_contention", "t2"));
    String ownJson = AnalysisJson.toJson(own).replace(tmp.resolve("own").toString(), "DIR");
    String hostedJson =
        AnalysisJson.toJson(hosted).replace(tmp.resolve("hosted").toString(), "DIR");
    assertEquals(ownJson, hostedJson);
    assertEquals(hosted.notes().toString(), own.notes().toString());
  }

  /**
   * t2's stretch of t1's file is cut after its lock request: t2 counts up to its last whole event,
   * and the status says it was hosted on the damaged file, whose own thread had ended whole.
   */
  @Test
  void aThreadHostedOnADamagedFileCountsUpToItsLastWholeEvent() throws IOException {
    TraceFixture f = write(tmp.resolve("cut"), true);
    Path dir = f.close(1000);
    // Cut one byte into t2's event after its lock request (its acquisition, at 510). The file's
    // events lie in one block, the last of them ending with its last non-zero byte (the unmount).
    Path file = TraceFiles.streamFile(dir, 2);
    long afterRequest = -1;
    long all;
    try (Trace t = Trace.open(dir);
        StreamCursor c = t.stream(2)) {
      while (c.next()) {
        if (c.kind() == EventKind.LOCK_REQUEST && c.time() == 250) {
          afterRequest = c.eventBytes();
        }
      }
      all = c.eventBytes();
    }
    byte[] bytes = Files.readAllBytes(file);
    int end = bytes.length;
    while (bytes[end - 1] == 0) {
      end--;
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(end - (all - afterRequest) + 1);
    }
    AnalysisResult r = Analyzer.analyze(dir);
    assertEquals(AnalysisResult.Status.CUT, r.status());
    assertTrue(
        r.statusDetail().contains("1 stream file was cut short or damaged (t1)")
            && r.statusDetail().contains("and so do 1 thread hosted on it (t2)"),
        r.statusDetail());
    String notes = String.join("\n", r.notes());
    assertTrue(
        notes.contains("so thread 't2' counts up to its last whole event")
            && notes.contains("hosted on that file"),
        notes);
    assertFalse(notes.contains("so thread 't1' counts"), notes);
    // t2 lived from its begin to its request, its last whole event.
    Check.partition(r, Map.of("main", 1000L, "t1", 45L, "t2", 50L));
  }
}
