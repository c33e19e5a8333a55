package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, simulated with {@link TraceWriter#simulateFreeSpace}: the definitions file only ever
 * holds whole records, the space reserve lets the definitions and the close in, a thread whose file
 * cannot be created keeps its one stream id and its drops are written, and event space is no longer
 * allocated once the reserve is used.
 */
class DiskFullTest {
  @TempDir Path tmp;

  private final List<String> problems = new CopyOnWriteArrayList<>();

  private TraceWriter create(Path dir) throws IOException {
    return TraceWriter.create(
        dir,
        TraceWriter.Options.defaults().withWindows(4096, 4096).withProblemListener(problems::add));
  }

  private static RegionDef region(int id) {
    return new RegionDef(id, ConstructKind.USER_REGION, "region-" + id, "C", "m", "C.java", id, id);
  }

  private static long reserveSize(Path dir) throws IOException {
    Path r = dir.resolve(SpaceReserve.FILE);
    return Files.exists(r) ? Files.size(r) : -1;
  }

  private static List<Path> eventFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve(TraceFiles.EVENTS_DIR))) {
      return s.sorted().toList();
    }
  }

  @Test
  void reserveIsWrittenAtCreationAndDeletedAtClose() throws Exception {
    Path dir = tmp.resolve("t");
    try (TraceWriter w = create(dir)) {
      assertEquals(dir, w.directory());
      long size = reserveSize(dir);
      assertTrue(size > 0 && size <= SpaceReserve.BYTES, "reserve of " + size + " bytes");
    }
    assertEquals(-1, reserveSize(dir), "deleted at close");
    try (Trace t = Trace.open(dir)) {
      assertTrue(t.definitions().closedCleanly());
      assertTrue(t.warnings().isEmpty(), t.warnings().toString());
    }
  }

  @Test
  void failedDefinitionWriteIsCutBackAndRetriedInTheReserve() throws Exception {
    Path dir = tmp.resolve("t");
    long before;
    try (TraceWriter w = create(dir)) {
      w.defineRegion(region(1));
      before = reserveSize(dir);
      w.simulateFreeSpace(7); // the next record fits only partly
      w.defineRegion(region(2));
      long after = reserveSize(dir);
      assertTrue(after < before, "the reserve was used: " + before + " -> " + after);
      w.defineRegion(region(3));
    }
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertFalse(d.cut(), "no half record");
      assertTrue(d.closedCleanly());
      for (int id = 1; id <= 3; id++) {
        assertEquals("region-" + id, d.region(id).name());
      }
    }
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).contains("No space left on device"), problems.get(0));
  }

  @Test
  void definitionThatCannotBeWrittenLeavesNothingAndLaterRecordsStayReadable() throws Exception {
    Path dir = tmp.resolve("t");
    int written = 0;
    IOException failure = null;
    try (TraceWriter w = create(dir)) {
      w.simulateFreeSpace(0);
      // The first part of the reserve takes definitions until it is used up too.
      for (int id = 1; id < 1_000_000 && failure == null; id++) {
        try {
          w.defineRegion(region(id));
          written = id;
        } catch (IOException e) {
          failure = e;
        }
      }
      assertTrue(failure != null && written > 100, written + " regions, then " + failure);
      long defsSize = Files.size(dir.resolve(TraceFiles.DEFS_FILE));
      assertThrows(IOException.class, () -> w.defineRegion(region(1_000_001)));
      assertEquals(defsSize, Files.size(dir.resolve(TraceFiles.DEFS_FILE)), "nothing appended");
      // The close part of the reserve: attributes, drops and the end record.
      w.defineAttribute("after", "full");
    }
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertFalse(d.cut(), "whole records only");
      assertTrue(d.closedCleanly(), "the end record found room");
      assertEquals(written, d.regions().size());
      assertEquals("full", d.attributes().get("after"));
    }
    assertEquals(-1, reserveSize(dir));
  }

  /**
   * A definition and the strings it introduces go to the file in one write: when that fails, none
   * of them is there, and the next definition using the same strings writes them again.
   */
  @Test
  void stringsOfADefinitionThatFailedAreWrittenWithTheNextOneUsingThem() throws Exception {
    Path dir = tmp.resolve("t");
    int failed = 0;
    try (TraceWriter w = create(dir)) {
      w.simulateFreeSpace(0);
      for (int id = 1; failed == 0; id++) { // until the reserve's first part is used up too
        try {
          w.defineRegion(region(id));
        } catch (IOException e) {
          failed = id;
        }
      }
      w.simulateFreeSpace(1 << 20);
      w.defineRegion(region(failed));
      // the same string once more: not defined again
      w.definePool(new PoolDef(3, ConstructKind.FORK_JOIN_POOL, "region-" + failed, 2));
    }
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertFalse(d.cut());
      assertEquals(failed, d.regions().size());
      assertEquals("region-" + failed, d.region(failed).name());
      assertEquals("region-" + failed, d.pool(3).name());
    }
  }

  @Test
  void threadWhoseFileCannotBeCreatedKeepsOneStreamAndItsDropsAreWritten() throws Exception {
    Path dir = tmp.resolve("t");
    TraceWriter.LostStream lost;
    try (TraceWriter w = create(dir)) {
      StreamWriter main = w.openStream(1, "main", 0, 0, 0);
      main.enter(10, 0);
      w.simulateFreeSpace(100); // room for the definition, not for a file: created, then no header
      TraceWriter.StreamNotOpenedException e =
          assertThrows(
              TraceWriter.StreamNotOpenedException.class,
              () -> w.openStream(2, "worker", 0, 0, 20));
      lost = e.lostStream();
      assertEquals(2, lost.id(), "its THREAD definition was written");
      for (int i = 0; i < 1234; i++) {
        lost.drop();
      }
      assertEquals(1234, w.dropped());
      assertEquals(List.of(TraceFiles.streamFile(dir, 1)), eventFiles(dir), "no file left");
    }
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertFalse(d.cut());
      assertTrue(d.closedCleanly());
      assertEquals(2, d.threads().size());
      assertEquals("worker", d.thread(2).name());
      assertEquals(1234L, d.drops().get(2));
      assertTrue(t.warnings().isEmpty(), t.warnings().toString());
      TraceVerifier.VerifyReport report = TraceVerifier.verify(t);
      assertTrue(report.ok(), report.errors().toString());
    }
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).startsWith("cannot create events/000002.wev"), problems.get(0));
  }

  @Test
  void afterTheReserveIsUsedNoEventSpaceIsAllocated() throws Exception {
    Path dir = tmp.resolve("t");
    long attempted = 0;
    StreamWriter s;
    try (TraceWriter w = create(dir)) {
      w.defineRegion(region(1));
      s = w.openStream(1, "main", 0, 0, 0);
      w.simulateFreeSpace(0);
      assertThrows(
          IOException.class,
          () ->
              w.defineRegion(
                  new RegionDef(
                      2, ConstructKind.USER_REGION, "x".repeat(2_000_000), "C", "m", "", 0, 0)));
      // The reserve is in use: the window the stream has is filled, then nothing more is given,
      // though the reserve's freed space would hold many windows.
      for (int i = 0; i < 20_000; i++) {
        long t = 10L * (i + 1);
        if (i % 2 == 0) {
          s.enter(t, 1);
        } else {
          s.exit(t, 1);
        }
        attempted++;
      }
      assertTrue(s.dropped() > 0, "events are dropped");
      assertEquals(attempted, s.events() + s.dropped());
      assertEquals(1, eventFiles(dir).size());
      assertTrue(Files.size(eventFiles(dir).get(0)) <= 3 * 4096, "no window after the first ones");
      TraceWriter.StreamNotOpenedException e =
          assertThrows(
              TraceWriter.StreamNotOpenedException.class, () -> w.openStream(2, "late", 0, 0, 0));
      assertNotEquals(0, e.lostStream().id(), "defined, but given no file");
      e.lostStream().drop();
    }
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertFalse(d.cut());
      assertTrue(d.closedCleanly());
      assertEquals(s.dropped(), d.drops().get(1));
      assertEquals(1L, d.drops().get(2));
      TraceVerifier.VerifyReport report = TraceVerifier.verify(t);
      assertTrue(report.ok(), report.errors().toString());
      // The lost stream's drop is counted too, though it has no event file.
      assertEquals(s.dropped() + 1, report.dropped());
    }
  }

  @Test
  void threadThatCannotBeDefinedCountsUnderStreamZero() throws Exception {
    Path dir = tmp.resolve("t");
    try (TraceWriter w = create(dir)) {
      w.simulateFreeSpace(0);
      try {
        for (int id = 1; ; id++) {
          w.defineRegion(region(id)); // until the first part of the reserve is used up
        }
      } catch (IOException expected) {
        // full
      }
      List<TraceWriter.LostStream> lost = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        lost.add(
            assertThrows(
                    TraceWriter.StreamNotOpenedException.class,
                    () -> w.openStream(7, "t".repeat(100), 0, 0, 0))
                .lostStream());
      }
      assertEquals(0, lost.get(0).id());
      assertTrue(lost.get(0) == lost.get(1) && lost.get(1) == lost.get(2), "one shared count");
      lost.forEach(TraceWriter.LostStream::drop);
    }
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertFalse(d.cut());
      assertTrue(d.closedCleanly());
      assertTrue(d.threads().isEmpty());
      assertEquals(3L, d.drops().get(0));
    }
  }

  @Test
  void interruptedThreadWritesAndCutsBackWithoutClosingTheFile() throws Exception {
    Path dir = tmp.resolve("t");
    try (TraceWriter w = create(dir)) {
      Thread.currentThread().interrupt();
      try {
        w.simulateFreeSpace(5);
        w.defineRegion(region(1)); // fails partly, is cut back, goes into the reserve
        w.defineRegion(region(2));
        assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is left as it was");
      } finally {
        Thread.interrupted();
      }
    }
    try (Trace t = Trace.open(dir)) {
      assertFalse(t.definitions().cut());
      assertTrue(t.definitions().closedCleanly());
      assertEquals(2, t.definitions().regions().size());
    }
  }
}
