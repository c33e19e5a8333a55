package dev.weft.trace;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The space reserve of a trace being written (FORMAT.md, "Drops"): a file of random bytes written
 * when the trace is created, freed in two parts when the disk is full, so that the definitions file
 * can still record what was lost and how the trace ended. Apart from the writer because it is a
 * policy of its own about disk space: once any of it is used, event space is closed for good.
 *
 * <p>Not thread-safe except {@link #inUse()}: the {@link DefinitionsFile} uses it under the
 * writer's lock.
 */
final class SpaceReserve {

  /** The reserve's file in the trace directory; deleted at close, ignored by readers. */
  static final String FILE = "defs.reserve";

  /**
   * Bytes of the reserve written when the trace is created (at most a quarter of the disk's free
   * space).
   */
  static final int BYTES = 1 << 20;

  /**
   * What is kept of the reserve when it is first used (at most a quarter of it): room for the
   * records of the close.
   */
  static final int CLOSE_BYTES = 64 * 1024;

  private final Path dir;
  private final SimulatedDisk disk;
  private final Consumer<String> problems;

  /**
   * True once the reserve was used: no more windows or event files are allocated, so that what the
   * reserve freed stays for the definitions; events from then on are dropped and counted.
   */
  private volatile boolean inUse;

  /** Which part of the reserve is left: 0 all of it, 1 the close part, 2 none. */
  private int stage;

  SpaceReserve(Path dir, SimulatedDisk disk, Consumer<String> problems) {
    this.dir = dir;
    this.disk = disk;
    this.problems = problems;
  }

  /** Whether the reserve was used: the disk's space is the definitions' now, not the events'. */
  boolean inUse() {
    return inUse;
  }

  /**
   * Writes the reserve: pseudo-random bytes (zeros would take no space on a compressing file
   * system). On a disk that is nearly full already the reserve is what fits; it never fails the
   * trace.
   */
  void create() {
    Path file = dir.resolve(FILE);
    long size = BYTES;
    try {
      long usable = dir.toFile().getUsableSpace(); // 0: unknown
      if (usable > 0) {
        size = Math.min(size, usable / 4); // the events need room too
      }
    } catch (RuntimeException e) {
      // The full size, as far as it fits.
    }
    // One 128 KiB chunk of xorshift output, written over and over: a compressing file system
    // compresses a block or record of up to 128 KiB at a time, and cannot shrink random bytes.
    long[] words = new long[128 * 1024 / 8];
    long x = System.nanoTime() | 1;
    for (int i = 0; i < words.length; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      words[i] = x;
    }
    byte[] chunk = new byte[words.length * 8];
    ByteBuffer.wrap(chunk).asLongBuffer().put(words);
    try {
      PrivateFiles.createFile(file);
    } catch (IOException | RuntimeException e) {
      return; // no reserve: the trace still works, with less room for its close on a full disk
    }
    try (FileOutputStream out = new FileOutputStream(file.toFile())) {
      for (long n = 0; n < size; n += chunk.length) {
        out.write(chunk, 0, (int) Math.min(chunk.length, size - n));
      }
    } catch (IOException | RuntimeException e) {
      // Kept as far as it was written.
    }
  }

  /**
   * Frees the next part of the reserve, if the failed write may use it: the first part for any
   * record (from then on no event space is allocated), the close part only when {@code closePart}
   * (an attribute, or the trace is closing). Returns whether space was freed.
   *
   * @param why why the definitions file could not be written
   */
  boolean release(String why, boolean closePart) {
    if (stage >= 2 || (stage == 1 && !closePart)) {
      return false;
    }
    inUse = true; // before the space is freed, so that no new window takes it
    Path reserve = dir.resolve(FILE);
    int releasing = stage++;
    problems.accept(
        "cannot write "
            + TraceFiles.DEFS_FILE
            + " ("
            + why
            + "): the definitions use their space reserve, events from now on are dropped");
    try (RandomAccessFile f = new RandomAccessFile(reserve.toFile(), "rw")) {
      long size = f.length();
      long keep = releasing == 0 ? Math.min(CLOSE_BYTES, size / 4) : 0;
      if (size <= keep) {
        return false;
      }
      f.setLength(keep);
      disk.give(size - keep);
      return true;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Deletes what is left of the reserve (at close). */
  void delete() {
    try {
      Files.deleteIfExists(dir.resolve(FILE));
    } catch (IOException | RuntimeException e) {
      // Left behind; readers ignore it.
    }
  }
}
