package dev.weft.cli.fuzz;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * One concrete change to a copy of a recorded trace, as data: what was done to which file where, so
 * that a failing case can be printed, kept in the regression corpus and replayed.
 *
 * @param kind what is done
 * @param trace the trace it is applied to: {@code clean}, {@code cut} or {@code deep} (synthetic)
 * @param file the file it is applied to, relative to the trace directory ({@code
 *     events/000003.wev}, {@code defs.wdf}), or null
 * @param offset a byte offset in {@code file} (TRUNCATE: the new size), or -1
 * @param length ZERO_RANGE: how many bytes
 * @param value HUGE_VARINT, SET_VARINT: the new value (unsigned; -1 is 2^64 - 1)
 * @param bytes OVERWRITE: the bytes written; JUNK: the junk file's contents
 * @param bits FLIP_BITS: absolute bit positions (byte offset * 8 + bit)
 * @param source DUPLICATE: the file of this trace copied over {@code file}; FOREIGN: the file of
 *     the other trace copied over it; JUNK: the junk file's path
 */
record Mutation(
    Kind kind,
    String trace,
    String file,
    long offset,
    int length,
    long value,
    byte[] bytes,
    long[] bits,
    String source) {

  /** What a mutation does. {@link #truncation} marks those after which a cut trace is honest. */
  enum Kind {
    TRUNCATE("truncate", true),
    FLIP_BITS("flip-bits", false),
    ZERO_RANGE("zero-range", false),
    OVERWRITE("overwrite", false),
    HUGE_VARINT("huge-varint", false),
    SET_VARINT("set-varint", false),
    DUPLICATE("duplicate", false),
    FOREIGN("foreign", false),
    DELETE_FILE("delete-file", false),
    NO_EVENTS_DIR("no-events-dir", false),
    NO_DEFS("no-defs", false),
    EMPTY_DEFS("empty-defs", false),
    JUNK("junk", false),
    DIRECTORY("directory", false),
    FIFO("fifo", false),
    SYMLINK_LOOP("symlink-loop", false),
    UNREADABLE("unreadable", false),
    DEEP_NESTING("deep-nesting", false);

    final String label;
    final boolean truncation;

    Kind(String label, boolean truncation) {
      this.label = label;
      this.truncation = truncation;
    }

    static Kind ofLabel(String label) {
      for (Kind k : values()) {
        if (k.label.equals(label)) {
          return k;
        }
      }
      throw new IllegalArgumentException("unknown mutation kind '" + label + "'");
    }
  }

  static Mutation of(Kind kind, String trace, String file) {
    return new Mutation(kind, trace, file, -1, 0, 0, null, null, null);
  }

  Mutation withOffset(long o) {
    return new Mutation(kind, trace, file, o, length, value, bytes, bits, source);
  }

  Mutation withLength(int n) {
    return new Mutation(kind, trace, file, offset, n, value, bytes, bits, source);
  }

  Mutation withValue(long v) {
    return new Mutation(kind, trace, file, offset, length, v, bytes, bits, source);
  }

  Mutation withBytes(byte[] b) {
    return new Mutation(kind, trace, file, offset, length, value, b, bits, source);
  }

  Mutation withBits(long[] b) {
    return new Mutation(kind, trace, file, offset, length, value, bytes, b, source);
  }

  Mutation withSource(String s) {
    return new Mutation(kind, trace, file, offset, length, value, bytes, bits, s);
  }

  /** One line: {@code flip-bits clean events/000002.wev bits=[9877@1234.5]}. */
  String describe() {
    StringBuilder b = new StringBuilder(kind.label).append(' ').append(trace);
    if (file != null) {
      b.append(' ').append(file);
    }
    switch (kind) {
      case TRUNCATE:
        b.append(" to ").append(offset).append(" bytes");
        break;
      case FLIP_BITS:
        b.append(" bits=")
            .append(
                Arrays.stream(bits)
                    .mapToObj(x -> (x / 8) + "." + (x % 8))
                    .collect(Collectors.joining(",", "[", "]")));
        break;
      case ZERO_RANGE:
        b.append(" @").append(offset).append(" len=").append(length);
        break;
      case OVERWRITE:
        b.append(" @").append(offset).append(" bytes=").append(HexFormat.of().formatHex(bytes));
        break;
      case HUGE_VARINT:
      case SET_VARINT:
        b.append(" @").append(offset).append(" value=").append(Long.toUnsignedString(value));
        break;
      case DUPLICATE:
      case FOREIGN:
        b.append(" from=").append(source);
        break;
      case JUNK:
        b.append(' ').append(source).append(" (").append(bytes.length).append(" bytes)");
        break;
      case DEEP_NESTING:
        b.append(" depth=").append(value);
        break;
      default:
        break;
    }
    return b.toString();
  }

  /**
   * Applies this mutation to {@code dir}, a copy of trace {@link #trace}; {@code other} is the
   * other recorded trace (for FOREIGN).
   *
   * @return null, or why this mutation cannot be done here (then the case is skipped)
   */
  String apply(Path dir, Path other) throws IOException, InterruptedException {
    Path f = file == null ? null : dir.resolve(file);
    switch (kind) {
      case TRUNCATE:
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
          raf.setLength(Math.min(offset, raf.length()));
        }
        return null;
      case FLIP_BITS:
        {
          byte[] b = Files.readAllBytes(f);
          for (long bit : bits) {
            if (bit / 8 < b.length) {
              b[(int) (bit / 8)] ^= (byte) (1 << (bit % 8));
            }
          }
          Files.write(f, b);
          return null;
        }
      case ZERO_RANGE:
        {
          byte[] b = Files.readAllBytes(f);
          int from = (int) Math.min(offset, b.length);
          Arrays.fill(b, from, (int) Math.min(b.length, from + (long) length), (byte) 0);
          Files.write(f, b);
          return null;
        }
      case OVERWRITE:
        {
          byte[] b = Files.readAllBytes(f);
          for (int i = 0; i < bytes.length && offset + i < b.length; i++) {
            b[(int) offset + i] = bytes[i];
          }
          Files.write(f, b);
          return null;
        }
      case HUGE_VARINT:
      case SET_VARINT:
        {
          byte[] b = Files.readAllBytes(f);
          if (offset >= b.length) {
            return "offset " + offset + " is past the end of " + file;
          }
          Files.write(f, TraceLayout.spliceVarint(b, (int) offset, value, file.equals("defs.wdf")));
          return null;
        }
      case DUPLICATE:
        Files.copy(dir.resolve(source), f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return null;
      case FOREIGN:
        Files.copy(other.resolve(source), f, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return null;
      case DELETE_FILE:
        Files.delete(f);
        return null;
      case NO_EVENTS_DIR:
        TraceFuzzTest.deleteTree(dir.resolve("events"));
        return null;
      case NO_DEFS:
        Files.delete(dir.resolve("defs.wdf"));
        return null;
      case EMPTY_DEFS:
        Files.write(dir.resolve("defs.wdf"), new byte[0]);
        return null;
      case JUNK:
        {
          Path junk = dir.resolve(source);
          if (source.endsWith("/")) {
            Files.createDirectories(junk);
            Files.write(junk.resolve("junk.wev"), bytes);
          } else {
            Files.createDirectories(junk.getParent());
            Files.write(junk, bytes);
          }
          return null;
        }
      case DIRECTORY:
        Files.delete(f);
        Files.createDirectory(f);
        return null;
      case FIFO:
        {
          Files.delete(f);
          Process p;
          try {
            p = new ProcessBuilder("mkfifo", f.toString()).redirectErrorStream(true).start();
          } catch (IOException e) {
            return "mkfifo is not available (" + e.getMessage() + ")";
          }
          if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            return "mkfifo failed: " + new String(p.getInputStream().readAllBytes()).strip();
          }
          return null;
        }
      case SYMLINK_LOOP:
        {
          Files.delete(f);
          Path loop = f.resolveSibling(f.getFileName() + ".loop");
          Files.createSymbolicLink(f, loop.getFileName());
          Files.createSymbolicLink(loop, f.getFileName());
          return null;
        }
      case UNREADABLE:
        {
          Files.setPosixFilePermissions(f, Set.of());
          try (InputStream in = Files.newInputStream(f)) {
            in.read();
            return "chmod 000 does not stop this user from reading (running as root?)";
          } catch (IOException e) {
            return null;
          }
        }
      case DEEP_NESTING:
        return null;
      default:
        throw new IllegalStateException("unhandled kind " + kind);
    }
  }

  /** Makes {@code dir} deletable again after {@link Kind#UNREADABLE}. */
  void undo(Path dir) throws IOException {
    if (kind == Kind.UNREADABLE && file != null && Files.exists(dir.resolve(file))) {
      Files.setPosixFilePermissions(
          dir.resolve(file),
          Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    }
  }
}
