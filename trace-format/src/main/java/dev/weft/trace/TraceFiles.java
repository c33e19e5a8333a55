package dev.weft.trace;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** File names, magic numbers and layout constants of format v1 (see FORMAT.md). */
public final class TraceFiles {
  public static final int VERSION_MAJOR = 1;
  public static final int VERSION_MINOR = 4;

  public static final String DEFS_FILE = "defs.wdf";
  public static final String EVENTS_DIR = "events";
  public static final String EVENTS_SUFFIX = ".wev";

  static final byte[] DEFS_MAGIC = "WEFTDEFS".getBytes(StandardCharsets.US_ASCII);
  static final byte[] EVENTS_MAGIC = "WEFTEVTS".getBytes(StandardCharsets.US_ASCII);

  /** Definitions header: magic(8) major(u16) minor(u16) reserved(u32). */
  static final int DEFS_HEADER_SIZE = 16;

  /** Event file header: magic(8) major(u16) minor(u16) stream(u32) dropped(u64) traceId(u64). */
  static final int EVENTS_HEADER_SIZE = 32;

  static final int EVENTS_HEADER_STREAM_OFFSET = 12;
  static final int EVENTS_HEADER_DROPPED_OFFSET = 16;

  /** Since 1.1: the trace id of the TRACE definition (0 in 1.0 files: no identity). */
  static final int EVENTS_HEADER_TRACE_ID_OFFSET = 24;

  /** No more events in this stream: pre-allocated space that was never written. */
  static final int CODE_END = 0x00;

  /**
   * Block header: code(1) length(u32, whole block including this header) baseTime(i64),
   * little-endian.
   */
  static final int CODE_BLOCK = 0xB0;

  static final int BLOCK_HEADER_SIZE = 13;

  /** The rest of this block is unused; the next block starts at blockStart + length. */
  static final int CODE_BLOCK_END = 0xBF;

  /**
   * Since 1.1, the last {@value #BLOCK_TRAILER_SIZE} bytes of every block are its trailer: seal(1)
   * events(u32) crc32c(u32). The seal byte is 0xBE once the writer has moved on to the next block
   * (events and checksum are then final); 0 while the block is still being written.
   */
  static final int CODE_BLOCK_SEAL = 0xBE;

  static final int BLOCK_TRAILER_SIZE = 9;

  /**
   * Since 1.1, every definition record's payload ends with a u32 CRC-32C of the record before it.
   */
  static final int DEF_CHECKSUM_SIZE = 4;

  // Definition record types.
  static final int DEF_STRING = 0x01;
  static final int DEF_CLOCK = 0x02;
  static final int DEF_PROCESS = 0x03;
  static final int DEF_REGION = 0x04;
  static final int DEF_THREAD = 0x05;
  static final int DEF_THREAD_NAME = 0x06;
  static final int DEF_POOL = 0x07;
  static final int DEF_OBJECT = 0x08;
  static final int DEF_DROPS = 0x09;
  static final int DEF_END = 0x0A;
  static final int DEF_ATTRIBUTE = 0x0B;
  static final int DEF_TRACE = 0x0C;
  static final int DEF_STREAM_END = 0x0D;
  static final int DEF_THREAD_JVM_COUNTS = 0x0E;

  private TraceFiles() {}

  /** The event file of a stream: {@code events/000042.wev}. */
  public static Path streamFile(Path traceDir, int stream) {
    return traceDir.resolve(EVENTS_DIR).resolve(String.format("%06d%s", stream, EVENTS_SUFFIX));
  }
}
