package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes that are not a Weft trace: corrupt event bytes make a stream CORRUPT with a one-line
 * problem naming the file (the events before them are still read); a foreign directory, a bad magic
 * number or an unsupported version make {@link Trace#open} throw a {@link TraceFormatException}
 * with a one-line message naming the file.
 *
 * <p>The trace here is left as a killed writer leaves it (not closed), so its one block is unsealed
 * and has no STREAM_END record: the decoder's own checks are what find the damage. Checksums are
 * tested in {@link IntegrityTest}.
 */
class CorruptionTest {
  @TempDir Path tmp;

  private Path dir;
  private Path events;
  private Path defs;
  private TraceWriter writer;

  /** One stream: ten ENTER events of region 1 at times 10, 20, ... (3 bytes each). */
  @BeforeEach
  void writeTrace() throws IOException {
    dir = tmp.resolve("t");
    writer = TraceWriter.create(dir, TraceWriter.Options.defaults());
    writer.defineRegion(new RegionDef(1, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 2));
    StreamWriter s = writer.openStream(1, "main", 0, 0, 0);
    for (int i = 1; i <= 10; i++) {
      s.enter(10L * i, 1);
    }
    events = TraceFiles.streamFile(dir, 1);
    defs = dir.resolve(TraceFiles.DEFS_FILE);
  }

  @AfterEach
  void stopWriter() throws IOException {
    writer.close(); // after the test: only its background thread matters now
  }

  /** Offset of the first event: file header, then the block header. */
  private static final int FIRST_EVENT =
      TraceFiles.EVENTS_HEADER_SIZE + TraceFiles.BLOCK_HEADER_SIZE;

  @Test
  void unknownEventCodeMakesTheStreamCorruptAfterTheEventsBeforeIt() throws IOException {
    patch(events, FIRST_EVENT + 3 * 3, (byte) 0x7E); // the fourth event's kind byte
    StreamCursor c = readStream();
    assertEquals(3, c.eventCount());
    assertCorrupt(c, "unknown event code 0x7e");
  }

  @Test
  void blockHeaderCodeWhereAnEventShouldStartIsCorrupt() throws IOException {
    patch(events, FIRST_EVENT + 3 * 5, (byte) TraceFiles.CODE_BLOCK);
    StreamCursor c = readStream();
    assertEquals(5, c.eventCount());
    assertCorrupt(c, "unknown event code 0xb0");
  }

  @Test
  void badBlockHeaderIsCorrupt() throws IOException {
    patch(events, TraceFiles.EVENTS_HEADER_SIZE, (byte) 0x42);
    StreamCursor c = readStream();
    assertEquals(0, c.eventCount());
    assertCorrupt(c, "expected a block header");
  }

  @Test
  void impossibleBlockLengthIsCorrupt() throws IOException {
    ByteBuffer len = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, 5);
    patch(events, TraceFiles.EVENTS_HEADER_SIZE + 1, len.array());
    StreamCursor c = readStream();
    assertCorrupt(c, "has length 5");
  }

  @Test
  void numberLongerThanTenBytesIsCorrupt() throws IOException {
    byte[] eleven = new byte[11];
    java.util.Arrays.fill(eleven, (byte) 0x80);
    patch(events, FIRST_EVENT + 1, eleven); // the first event's time delta never ends
    StreamCursor c = readStream();
    assertEquals(0, c.eventCount());
    assertCorrupt(c, "malformed number");
  }

  @Test
  void eventFileWithBadMagicFailsToOpen() throws IOException {
    patch(events, 0, (byte) 'X');
    assertOpenFails(events, "not a Weft event file (bad magic)");
  }

  @Test
  void eventFileOfAnotherMajorVersionFailsToOpen() throws IOException {
    patch(events, 8, (byte) 2);
    assertOpenFails(events, "version 2 is not supported");
  }

  @Test
  void eventFileOfAnotherStreamFailsToOpen() throws IOException {
    patch(events, 12, (byte) 9);
    assertOpenFails(events, "header says stream 9 but the file name says 1");
  }

  @Test
  void definitionsWithBadMagicFailToOpen() throws IOException {
    patch(defs, 3, (byte) 'x');
    assertOpenFails(defs, "not a Weft trace (bad magic)");
  }

  @Test
  void definitionsOfAnotherMajorVersionFailToOpen() throws IOException {
    patch(defs, 8, (byte) 3);
    assertOpenFails(
        defs, "trace format version 3." + TraceFiles.VERSION_MINOR + " is not supported");
  }

  @Test
  void aChangedDefinitionRecordFailsItsChecksum() throws IOException {
    // The first record is the trace id: type, length, varint id, CRC-32C. Change the id.
    assertEquals(TraceFiles.DEF_TRACE, Files.readAllBytes(defs)[TraceFiles.DEFS_HEADER_SIZE]);
    byte[] b = Files.readAllBytes(defs);
    patch(defs, TraceFiles.DEFS_HEADER_SIZE + 2, (byte) (b[TraceFiles.DEFS_HEADER_SIZE + 2] ^ 1));
    assertOpenFails(defs, "corrupt at byte 16: checksum mismatch in a record of type 0xc");
  }

  @Test
  void directoryWithoutDefinitionsIsNotATrace() throws IOException {
    Path foreign = tmp.resolve("foreign");
    Files.createDirectories(foreign);
    Files.writeString(foreign.resolve("notes.txt"), "hello");
    assertOpenFails(foreign, foreign, "not a Weft trace (no defs.wdf)");
  }

  @Test
  void fileOrMissingDirectoryIsNotATrace() throws IOException {
    Path file = Files.writeString(tmp.resolve("file.txt"), "hello");
    assertOpenFails(file, file, "not a Weft trace (not a directory)");
    Path missing = tmp.resolve("missing");
    assertOpenFails(missing, missing, "no such trace directory");
  }

  @Test
  void definitionsFileOfAnotherProgramIsNotATrace() throws IOException {
    Files.writeString(defs, "this is some other program's file with enough bytes\n");
    assertOpenFails(defs, "not a Weft trace (bad magic)");
  }

  private StreamCursor readStream() {
    Trace t = Trace.open(dir);
    StreamCursor c = t.stream(1);
    List<Long> times = new ArrayList<>();
    while (c.next()) {
      times.add(c.time());
    }
    for (int i = 0; i < times.size(); i++) {
      assertEquals(10L * (i + 1), times.get(i));
    }
    t.close();
    return c;
  }

  private static void assertCorrupt(StreamCursor c, String what) {
    assertEquals(StreamCursor.State.CORRUPT, c.state());
    assertTrue(c.problem().startsWith("000001.wev: "), c.problem());
    assertTrue(c.problem().contains(what), c.problem());
    assertFalse(c.problem().contains("\n"));
  }

  private void assertOpenFails(Path named, String what) {
    assertOpenFails(dir, named, what);
  }

  private static void assertOpenFails(Path traceDir, Path named, String what) {
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.open(traceDir));
    assertTrue(e.getMessage().contains(named.toString()), e.getMessage());
    assertTrue(e.getMessage().contains(what), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }

  private static void patch(Path file, long offset, byte... bytes) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(bytes), offset);
    }
  }
}
