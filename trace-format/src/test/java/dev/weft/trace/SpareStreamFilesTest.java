package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event files are made ahead of need so that a thread's first event does not wait for one: a stream
 * takes a spare under its own name and id, the close removes the spares left, and a spare left by a
 * killed process is not part of the trace.
 */
class SpareStreamFilesTest {
  @TempDir Path tmp;

  private static final int REGION = 1;

  @Test
  void aStreamTakesASpareUnderItsOwnNameAndTheCloseRemovesTheRest() throws Exception {
    Path dir = tmp.resolve("t");
    Path copyOfSpare = tmp.resolve("left-by-a-kill.spare");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineRegion(
          new RegionDef(REGION, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 2));
      List<Path> spares = waitForSpares(dir);
      StreamWriter s = w.openStream(7, "worker", 0, 0, 0);
      assertEquals(1, s.id());
      assertTrue(!Files.exists(spares.get(0)) || !Files.exists(spares.get(1)), "one was taken");
      s.enter(10, REGION);
      s.exit(20, REGION);
      Files.copy(waitForSpares(dir).get(0), copyOfSpare);
    }
    assertEquals(List.of(), sparesIn(dir), "the close deletes the spares");
    // A process killed while a spare was ready leaves it behind: readers ignore it.
    Files.copy(
        copyOfSpare, dir.resolve(TraceFiles.EVENTS_DIR).resolve("9" + SpareStreamFiles.SUFFIX));
    try (Trace t = Trace.open(dir)) {
      assertEquals(List.of(1), t.streamIds());
      StreamCursor c = t.stream(1);
      int events = 0;
      while (c.next()) {
        events++;
      }
      assertEquals(2, events);
      assertEquals(Trace.Status.COMPLETE, t.integrity().status(), t.integrity().toString());
    }
  }

  @Test
  void noSparesOnceAFullDiskIsSimulated() throws Exception {
    Path dir = tmp.resolve("t");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      waitForSpares(dir);
      w.simulateFreeSpace(1 << 20);
      assertEquals(List.of(), sparesIn(dir), "spares would take real disk space");
      w.openStream(7, "worker", 0, 0, 0);
      Thread.sleep(200);
      assertEquals(List.of(), sparesIn(dir));
    }
  }

  /** Waits (up to 10 s, a loaded host) for the background thread to have made its spares. */
  private static List<Path> waitForSpares(Path dir) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      List<Path> spares = sparesIn(dir);
      if (spares.size() == SpareStreamFiles.KEPT) {
        return spares;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("no spares made: " + sparesIn(dir));
  }

  private static List<Path> sparesIn(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve(TraceFiles.EVENTS_DIR))) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(SpareStreamFiles.SUFFIX))
          .sorted()
          .toList();
    }
  }
}
