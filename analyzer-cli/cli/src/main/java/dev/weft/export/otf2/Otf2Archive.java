package dev.weft.export.otf2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The layout of an OTF2 archive in a directory:
 *
 * <pre>
 * DIR/traces.otf2        anchor file: format version, chunk sizes, counts, creator
 * DIR/traces.def         global definitions
 * DIR/traces/LOC.evt     the events of location LOC (one per thread)
 * DIR/traces/LOC.def     its local definitions (none here: every definition is global)
 * </pre>
 *
 * <p>The anchor file is one unchunked buffer: a chunk header (type and endianness byte only), the
 * string "OTF2", the anchor format, the trace format, the OTF2 version the files follow, the chunk
 * sizes, substrate, compression, the numbers of locations and global definitions, machine, creator
 * and description strings, properties, a trace id, the numbers of snapshots and thumbnails, then
 * END_OF_FILE, END_OF_BUFFER and END_OF_CHUNK.
 */
final class Otf2Archive {
  static final String NAME = "traces";

  /** Bytes per event chunk (OTF2 allows 256 KiB to 16 MiB). */
  static final int EVENT_CHUNK_BYTES = 1 << 20;

  /** Bytes per definitions chunk. */
  static final int DEF_CHUNK_BYTES = 4 << 20;

  private static final String MAGIC = "OTF2";
  private static final int ANCHOR_FORMAT = 3;
  private static final int TRACE_FORMAT = 2;

  /** The OTF2 version whose records these files contain (newer readers read them). */
  private static final int[] VERSION = {2, 0, 0};

  private static final int SUBSTRATE_POSIX = 1;
  private static final int COMPRESSION_NONE = 1;

  private final Path dir;

  /** Prepares {@code dir}, which must not exist or be empty. */
  Otf2Archive(Path dir) throws IOException {
    this.dir = dir;
    if (Files.exists(dir)) {
      if (!Files.isDirectory(dir)) {
        throw new IOException(dir + " exists and is not a directory");
      }
      try (Stream<Path> s = Files.list(dir)) {
        if (s.findAny().isPresent()) {
          throw new IOException(dir + " is not empty");
        }
      }
    }
    Files.createDirectories(dir.resolve(NAME));
  }

  Path anchorFile() {
    return dir.resolve(NAME + ".otf2");
  }

  Path globalDefinitionsFile() {
    return dir.resolve(NAME + ".def");
  }

  Path eventFile(long location) {
    return dir.resolve(NAME).resolve(Long.toUnsignedString(location) + ".evt");
  }

  /** Writes a location's local definitions file, which holds no records. */
  void writeLocalDefinitions(long location) throws IOException {
    Path file = dir.resolve(NAME).resolve(Long.toUnsignedString(location) + ".def");
    new ChunkedFile(file, DEF_CHUNK_BYTES).close();
  }

  void writeAnchor(
      long locations,
      long globalDefinitions,
      String machine,
      String creator,
      String description,
      long traceId)
      throws IOException {
    Encoding a = new Encoding();
    a.u8(Encoding.CHUNK_HEADER).u8(Encoding.LITTLE_ENDIAN);
    a.string(MAGIC).u8(ANCHOR_FORMAT).u8(TRACE_FORMAT);
    a.u8(VERSION[0]).u8(VERSION[1]).u8(VERSION[2]);
    a.u64Full(EVENT_CHUNK_BYTES).u64Full(DEF_CHUNK_BYTES);
    a.u8(SUBSTRATE_POSIX).u8(COMPRESSION_NONE);
    a.u64Full(locations).u64Full(globalDefinitions);
    a.string(machine).string(creator).string(description);
    a.u32Full(0); // no properties
    a.u64Full(traceId);
    a.u32Full(0).u32Full(0); // no snapshots, no thumbnails
    a.u8(Encoding.END_OF_FILE).u8(Encoding.END_OF_BUFFER).u8(Encoding.END_OF_CHUNK);
    Files.write(anchorFile(), a.toByteArray());
  }
}
