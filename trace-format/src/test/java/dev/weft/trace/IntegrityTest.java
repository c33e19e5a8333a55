package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader's verdict on a trace: checksums find changed bytes in every block of a closed trace,
 * trace ids find files of other traces, zeroed ranges are found, and salvage reads the rest.
 */
class IntegrityTest {
  @TempDir Path tmp;

  private static final int REGION = 1;

  /** Events per stream: enough for several 4 KiB windows. */
  private static final int PAIRS = 3000;

  private Path dir;

  @BeforeEach
  void writeTrace() throws IOException {
    dir = write(tmp.resolve("t"));
  }

  private static Path write(Path dir) throws IOException {
    TraceWriter.Options small = TraceWriter.Options.defaults().withWindows(4096, 4096);
    try (TraceWriter w = TraceWriter.create(dir, small)) {
      w.defineRegion(
          new RegionDef(REGION, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 2));
      for (int stream = 1; stream <= 2; stream++) {
        StreamWriter s = w.openStream(stream, "t" + stream, 0, 0, 0);
        for (int i = 0; i < PAIRS; i++) {
          s.enter(100L * i, REGION);
          s.exit(100L * i + 50, REGION);
        }
      }
    }
    return dir;
  }

  private static Trace.Integrity readAll(Trace t) {
    for (int id : t.streamIds()) {
      StreamCursor c = t.stream(id);
      while (c.next()) {
        // read to the end
      }
    }
    return t.integrity();
  }

  private static long count(Trace t) {
    long n = 0;
    EventCursor c = t.events();
    while (c.next()) {
      n++;
    }
    return n;
  }

  /**
   * The offset of the last 4 KiB block the stream wrote into: the stream's events end somewhere in
   * it. Windows prepared ahead and never used follow it, all zeros.
   */
  private static long lastWrittenBlock(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    for (long b = (bytes.length - TraceFiles.EVENTS_HEADER_SIZE) / 4096 - 1; b >= 0; b--) {
      int start = (int) (TraceFiles.EVENTS_HEADER_SIZE + b * 4096);
      for (int i = start; i < start + TraceFiles.BLOCK_HEADER_SIZE; i++) {
        if (bytes[i] != 0) {
          return start;
        }
      }
    }
    throw new AssertionError(file + ": no block written");
  }

  private static void patch(Path file, long offset, int xor) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.put(0, (byte) (b.get(0) ^ xor)).rewind();
      ch.write(b, offset);
    }
  }

  private static void zero(Path file, long from, int length) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(length), from);
    }
  }

  @Test
  void aClosedTraceIsComplete() {
    try (Trace t = Trace.open(dir)) {
      assertEquals(4L * PAIRS, count(t));
      Trace.Integrity i = t.integrity();
      assertEquals(Trace.Status.COMPLETE, i.status(), i.toString());
      assertEquals("complete", i.summary());
    }
  }

  @Test
  void aFlippedBitInASealedBlockIsFoundBeforeItsEventsAreRead() throws IOException {
    Path f = TraceFiles.streamFile(dir, 1);
    long second = TraceFiles.EVENTS_HEADER_SIZE + 4096;
    patch(f, second + 100, 0x04);
    try (Trace t = Trace.open(dir)) {
      StreamCursor c = t.stream(1);
      long n = 0;
      while (c.next()) {
        n++;
      }
      assertEquals(StreamCursor.State.CORRUPT, c.state());
      assertTrue(
          c.problem().contains("block at byte " + second + ": checksum mismatch ("), c.problem());
      Trace.Integrity i = t.integrity();
      assertEquals(Trace.Status.DAMAGED, i.status());
      // Only the first block's events were handed out.
      assertTrue(n > 0 && n < 4096 / 3, "events read: " + n);
      TraceFormatException e = assertThrows(TraceFormatException.class, t::requireIntact);
      assertTrue(e.getMessage().contains("000001.wev: block at byte " + second), e.getMessage());
      assertTrue(e.getMessage().contains("--salvage"), e.getMessage());
    }
  }

  @Test
  void salvageSkipsTheDamagedBlockAndCountsItsEvents() throws IOException {
    Path f = TraceFiles.streamFile(dir, 1);
    long second = TraceFiles.EVENTS_HEADER_SIZE + 4096;
    patch(f, second + 100, 0x04);
    try (Trace t = Trace.openSalvaging(dir)) {
      long n = count(t);
      Trace.Integrity i = t.integrity();
      assertEquals(Trace.Status.PARTIAL, i.status(), i.toString());
      assertTrue(i.lostEvents() > 100, i.toString());
      assertEquals(4L * PAIRS, n + i.lostEvents(), "read + lost = written");
      assertTrue(i.summary().startsWith("partial: 000001.wev: block at byte"), i.summary());
    }
  }

  @Test
  void aFlippedBitInTheLastBlockIsFoundByTheStreamEnd() throws IOException {
    Path f = TraceFiles.streamFile(dir, 2);
    long last = lastWrittenBlock(f);
    patch(f, last + TraceFiles.BLOCK_HEADER_SIZE + 1, 0x01);
    try (Trace t = Trace.open(dir)) {
      Trace.Integrity i = readAll(t);
      assertEquals(Trace.Status.DAMAGED, i.status(), i.toString());
      assertTrue(i.damage().get(0).contains("checksum mismatch"), i.damage().toString());
    }
  }

  /** Stream 1 of a writer left open (as if killed): 100 enter/exit pairs of one region. */
  private static StreamWriter hundredPairs(TraceWriter w) throws IOException {
    w.defineRegion(new RegionDef(REGION, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 2));
    StreamWriter s = w.openStream(1, "t1", 0, 0, 0);
    for (int i = 0; i < 100; i++) {
      s.enter(100L * i, REGION);
      s.exit(100L * i + 50, REGION);
    }
    return s;
  }

  @Test
  void aZeroedRangeInAKilledTracesLastBlockIsFound() throws IOException {
    // A killed writer: no STREAM_END, the last block unsealed, so only the zero tail tells.
    Path killed = tmp.resolve("killed");
    TraceWriter w = TraceWriter.create(killed, TraceWriter.Options.defaults());
    hundredPairs(w);
    Path f = TraceFiles.streamFile(killed, 1);
    zero(f, TraceFiles.EVENTS_HEADER_SIZE + TraceFiles.BLOCK_HEADER_SIZE + 30, 6);
    try (Trace t = Trace.open(killed)) {
      Trace.Integrity i = readAll(t);
      assertEquals(Trace.Status.DAMAGED, i.status(), i.toString());
      assertTrue(i.damage().get(0).contains("data again at"), i.damage().toString());
    } finally {
      w.close();
    }
  }

  @Test
  void anEventAKilledWriterHadNotMadeValidEndsTheStreamWithoutDamage() throws IOException {
    // Killed between an event's payload and its kind byte: the payload is there, the kind is not.
    Path killed = tmp.resolve("killed-mid-event");
    TraceWriter w = TraceWriter.create(killed, TraceWriter.Options.defaults());
    StreamWriter s = hundredPairs(w);
    Path f = TraceFiles.streamFile(killed, 1);
    byte[] before = Files.readAllBytes(f);
    s.enter(100_000L, REGION);
    byte[] after = Files.readAllBytes(f);
    int kind = java.util.Arrays.mismatch(before, after);
    assertTrue(kind > 0, "the event was written");
    assertTrue(after[kind + 1] != 0, "its payload follows its kind byte");
    zero(f, kind, 1);
    try (Trace t = Trace.open(killed)) {
      Trace.Integrity i = readAll(t);
      assertEquals(Trace.Status.CUT, i.status(), i.toString());
      assertEquals(200, count(t), "the 200 valid events, not the one being written");
    } finally {
      w.close();
    }
  }

  @Test
  void anEventFileOfAnotherTraceIsRejected() throws IOException {
    Path other = write(tmp.resolve("other"));
    Files.copy(
        TraceFiles.streamFile(other, 2),
        TraceFiles.streamFile(dir, 2),
        StandardCopyOption.REPLACE_EXISTING);
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.open(dir));
    assertTrue(e.getMessage().contains("000002.wev: belongs to another trace"), e.getMessage());
    try (Trace t = Trace.openSalvaging(dir)) {
      assertEquals(2L * PAIRS, count(t), "the foreign file is left out");
      assertEquals(Trace.Status.PARTIAL, t.integrity().status());
    }
  }

  @Test
  void aMissingEventFileOfAClosedTraceIsDamage() throws IOException {
    Files.delete(TraceFiles.streamFile(dir, 2));
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.open(dir));
    assertTrue(
        e.getMessage().contains("000002.wev: missing (thread 't2' is defined)"), e.getMessage());
  }

  @Test
  void anEventFileWithoutAThreadOfAClosedTraceIsDamage() throws IOException {
    Files.copy(TraceFiles.streamFile(dir, 2), TraceFiles.streamFile(dir, 7));
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.open(dir));
    assertTrue(e.getMessage().contains("no thread definition for stream 7"), e.getMessage());
  }

  @Test
  void aFifoIsRefusedWithoutBeingOpened() throws Exception {
    Path f = TraceFiles.streamFile(dir, 2);
    Files.delete(f);
    Process p = new ProcessBuilder("mkfifo", f.toString()).start();
    org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo is not available");
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.open(dir));
    assertTrue(e.getMessage().contains("000002.wev: not a regular file"), e.getMessage());
  }

  @Test
  void aChangedDefinitionIsDamageAndSalvageKeepsTheRecordsBeforeIt() throws IOException {
    Path defs = dir.resolve(TraceFiles.DEFS_FILE);
    long size = Files.size(defs);
    patch(defs, size - 3, 0x10); // inside the END record's checksum
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.open(dir));
    assertTrue(e.getMessage().contains("defs.wdf: corrupt at byte"), e.getMessage());
    assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
    try (Trace t = Trace.openSalvaging(dir)) {
      assertEquals(4L * PAIRS, count(t));
      Trace.Integrity i = t.integrity();
      assertEquals(Trace.Status.PARTIAL, i.status(), i.toString());
    }
  }

  @Test
  void anUndefinedRegionIsDamageAtItsByte() throws IOException {
    Path d = tmp.resolve("undefined");
    try (TraceWriter w = TraceWriter.create(d, TraceWriter.Options.defaults())) {
      StreamWriter s = w.openStream(1, "t1", 0, 0, 0);
      s.enter(10, 768);
    }
    try (Trace t = Trace.open(d)) {
      Trace.Integrity i = readAll(t);
      assertEquals(Trace.Status.DAMAGED, i.status());
      assertEquals("000001.wev: event at byte 45: region 768 is not defined", i.damage().get(0));
    }
  }

  /** A flipped bit in the first block's length makes it run far past the file's end. */
  private static void stretchFirstBlock(Path f) throws IOException {
    patch(f, TraceFiles.EVENTS_HEADER_SIZE + 3, 0x08); // length + 2^19
  }

  @Test
  void aStretchedBlockOfAClosedTraceIsDamageBeforeItsEventsAreRead() throws IOException {
    // Its trailer now lies past the file's end, so no checksum covers it; the stream's recorded
    // last block says that blocks cannot reach that far.
    stretchFirstBlock(TraceFiles.streamFile(dir, 1));
    try (Trace t = Trace.open(dir)) {
      StreamCursor c = t.stream(1);
      long n = 0;
      while (c.next()) {
        n++;
      }
      assertEquals(StreamCursor.State.CORRUPT, c.state(), c.problem());
      assertEquals(0, n, "no event of the unchecked block is handed out");
      assertTrue(c.problem().contains("past the stream's last block"), c.problem());
    }
  }

  @Test
  void aStretchedBlockOfAKilledTraceIsDamageNotACut() throws IOException {
    Path killed = tmp.resolve("killed-stretched");
    TraceWriter w =
        TraceWriter.create(killed, TraceWriter.Options.defaults().withWindows(4096, 4096));
    try {
      w.defineRegion(
          new RegionDef(REGION, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 2));
      StreamWriter s = w.openStream(1, "t1", 0, 0, 0);
      for (int i = 0; i < PAIRS; i++) {
        s.enter(100L * i, REGION);
        s.exit(100L * i + 50, REGION);
      }
      stretchFirstBlock(TraceFiles.streamFile(killed, 1));
      try (Trace t = Trace.open(killed)) {
        Trace.Integrity i = readAll(t);
        assertEquals(Trace.Status.DAMAGED, i.status(), i.toString());
        assertTrue(i.damage().get(0).contains("data follows its end marker"), i.toString());
      }
    } finally {
      w.close();
    }
  }

  @Test
  void anEventFileClaimingAnotherFormatVersionIsRejected() throws IOException {
    // Version 1.0 has no checksums: read as 1.0, changed events would pass unnoticed.
    Path f = TraceFiles.streamFile(dir, 2);
    patch(f, 10, TraceFiles.VERSION_MINOR);
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.open(dir));
    assertTrue(
        e.getMessage().contains("000002.wev: corrupt header (format version 1.0"), e.getMessage());
  }

  @Test
  void aDefinitionRecordLengthRunningPastTheFileIsDamageWhenAWholeRecordFollows()
      throws IOException {
    Path defs = dir.resolve(TraceFiles.DEFS_FILE);
    byte[] bytes = Files.readAllBytes(defs);
    // Walk the records to the second-to-last one (its length is one varint byte).
    int at = TraceFiles.DEFS_HEADER_SIZE;
    int previous = -1;
    while (at < bytes.length) {
      int len = 0;
      int q = at + 1;
      for (int shift = 0; ; shift += 7) {
        int x = bytes[q++];
        len |= (x & 0x7F) << shift;
        if (x >= 0) {
          break;
        }
      }
      if (q + len >= bytes.length) {
        break;
      }
      previous = at;
      at = q + len;
    }
    assertTrue(previous > 0 && (bytes[previous + 1] & 0x80) == 0, "a one-byte record length");
    bytes[previous + 1] = 0x7F; // now it runs past the file's end, over the last record
    Files.write(defs, bytes);
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.open(dir));
    assertTrue(e.getMessage().contains("yet a whole record follows at byte " + at), e.getMessage());

    // Cut inside the last record instead: a cut, as a killed writer leaves it.
    Files.write(defs, java.util.Arrays.copyOf(Files.readAllBytes(defs), at + 2));
    bytes = Files.readAllBytes(defs);
    bytes[previous + 1] = (byte) (at - previous - 2);
    Files.write(defs, bytes);
    try (Trace t = Trace.open(dir)) {
      assertTrue(t.definitions().cut(), "cut inside its last record");
    }
  }

  @Test
  void aCutFileIsCutNotDamaged() throws IOException {
    Path f = TraceFiles.streamFile(dir, 1);
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
      ch.truncate(TraceFiles.EVENTS_HEADER_SIZE + 4096 + 777);
    }
    try (Trace t = Trace.open(dir)) {
      Trace.Integrity i = readAll(t);
      assertEquals(Trace.Status.CUT, i.status(), i.toString());
      assertTrue(i.summary().startsWith("cut: 000001.wev: file ends inside"), i.summary());
    }
  }

  @Test
  void aClosedTracesDropsComeFromItsChecksummedRecordNotTheLiveCounter() throws IOException {
    Path f = TraceFiles.streamFile(dir, 1);
    patch(f, TraceFiles.EVENTS_HEADER_DROPPED_OFFSET, 0x05); // no checksum covers it
    try (Trace t = Trace.open(dir)) {
      StreamCursor c = t.stream(1);
      assertEquals(0, c.headerDropped(), "no DROPS record: nothing was dropped");
      while (c.next()) {
        // read to the end
      }
      assertEquals(Trace.Status.COMPLETE, t.integrity().status());
    }
  }

  @Test
  void aKilledTracesThreadWithoutItsFileIsDamageWhenDefinedLongBeforeTheEnd() throws Exception {
    Path killed = tmp.resolve("killed-missing");
    TraceWriter w = TraceWriter.create(killed, TraceWriter.Options.defaults());
    try {
      w.defineRegion(
          new RegionDef(REGION, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 2));
      long t0 = System.nanoTime();
      StreamWriter early = w.openStream(1, "early", 0, 0, t0);
      early.enter(t0 + 10, REGION);
      StreamWriter late = w.openStream(2, "late", 0, 0, t0 + 20);
      // The recording goes on for 300 ms after both threads were defined.
      late.enter(t0 + 300_000_000L, REGION);
      late.exit(t0 + 300_000_100L, REGION);
      Files.delete(TraceFiles.streamFile(killed, 1));
      try (Trace t = Trace.open(killed)) {
        Trace.Integrity i = readAll(t);
        assertEquals(Trace.Status.DAMAGED, i.status(), i.toString());
        assertTrue(
            i.damage().get(0).contains("000001.wev: missing (thread 'early' was defined"),
            i.damage().toString());
      }
    } finally {
      w.close();
    }
  }
}
