package dev.weft.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * What an event file's header says that a reader goes by (FORMAT.md, "Event files"), read and
 * checked before anything else in the file. Apart from {@link StreamCursor} because {@link Trace}
 * checks every file's header when it opens a trace, before any cursor reads events.
 *
 * @param minor the file's format minor version: 1.1 and later have block trailers and a trace id
 * @param dropped the drop count the writer keeps live in the header
 */
record EventFileHeader(int minor, long dropped) {

  /**
   * Reads and checks an event file's header. Returns null when the file ends inside a header whose
   * bytes so far are right (a writer killed while creating the file).
   *
   * @param traceId the id the header must repeat; 0 for any
   * @param expectedMinor the minor version the trace's definitions have, which every event file of
   *     the trace repeats; -1 for any
   * @throws TraceFormatException when the file is not a Weft event file of this major version or
   *     belongs to another stream or trace
   */
  static EventFileHeader read(
      Path path, FileChannel channel, int expectedStream, long traceId, int expectedMinor)
      throws IOException {
    ByteBuffer h =
        ByteBuffer.allocate(TraceFiles.EVENTS_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    while (h.hasRemaining() && channel.read(h, h.position()) > 0) {
      // read until full or end of file
    }
    int n = h.position();
    for (int i = 0; i < Math.min(n, TraceFiles.EVENTS_MAGIC.length); i++) {
      if (h.get(i) != TraceFiles.EVENTS_MAGIC[i]) {
        throw new TraceFormatException(path + ": not a Weft event file (bad magic)");
      }
    }
    if (n >= 10) {
      int major = Short.toUnsignedInt(h.getShort(8));
      if (major != TraceFiles.VERSION_MAJOR) {
        throw new TraceFormatException(
            path
                + ": event file format version "
                + major
                + " is not supported (this reader reads "
                + TraceFiles.VERSION_MAJOR
                + ".x)");
      }
    }
    if (n < TraceFiles.EVENTS_HEADER_SIZE) {
      return null;
    }
    int stream = h.getInt(12);
    if (stream != expectedStream) {
      throw new TraceFormatException(
          path + ": header says stream " + stream + " but the file name says " + expectedStream);
    }
    long fileTraceId = h.getLong(TraceFiles.EVENTS_HEADER_TRACE_ID_OFFSET);
    int minor = Short.toUnsignedInt(h.getShort(10));
    if (expectedMinor >= 0 && minor != expectedMinor) {
      // One writer writes a trace's files in one version: another one here is a changed header,
      // and reading the file in that version would skip its checksums (1.0) or misread it.
      throw new TraceFormatException(
          path
              + ": corrupt header (format version 1."
              + minor
              + " in a trace of version 1."
              + expectedMinor
              + ")");
    }
    if (traceId != 0 && minor >= 1 && fileTraceId != traceId) {
      throw new TraceFormatException(
          path
              + ": belongs to another trace (its trace id is "
              + Long.toHexString(fileTraceId)
              + ", this trace's is "
              + Long.toHexString(traceId)
              + ")");
    }
    long dropped = h.getLong(TraceFiles.EVENTS_HEADER_DROPPED_OFFSET);
    if (dropped < 0) {
      throw new TraceFormatException(path + ": corrupt header (drop count out of range)");
    }
    return new EventFileHeader(minor, dropped);
  }
}
