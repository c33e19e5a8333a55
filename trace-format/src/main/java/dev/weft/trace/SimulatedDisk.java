package dev.weft.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The free space a trace behaves as if its disk had, for tests of a full disk ({@link
 * TraceWriter#simulateFreeSpace}); by default the real disk, and every method a no-op. Apart from
 * the writer because the definitions file, the space reserve and the event windows all take from
 * and give back to the same space.
 */
final class SimulatedDisk {
  /** The message of a simulated full disk. */
  static final String FULL = "No space left on device (simulated)";

  /** Free value meaning "the real disk": nothing is simulated. */
  private static final long REAL = Long.MIN_VALUE;

  private final AtomicLong free = new AtomicLong(REAL);

  /** From now on the disk has {@code bytes} free. */
  void setFree(long bytes) {
    free.set(Math.max(0, bytes));
  }

  /** Takes {@code bytes} if they are free; false (taking nothing) when they are not. */
  boolean take(long bytes) {
    while (true) {
      long now = free.get();
      if (now == REAL) {
        return true;
      }
      if (now < bytes) {
        return false;
      }
      if (free.compareAndSet(now, now - bytes)) {
        return true;
      }
    }
  }

  /**
   * Takes as much of {@code length} bytes as is free and returns how much that is: a write to a
   * full disk may take part of its bytes.
   */
  int takeUpTo(int length) {
    long now = free.get();
    if (now == REAL) {
      return length;
    }
    int fits = (int) Math.max(0, Math.min(length, now));
    free.addAndGet(-fits);
    return fits;
  }

  /** Gives back {@code bytes} (a file was cut back or deleted). */
  void give(long bytes) {
    free.updateAndGet(now -> now == REAL ? now : now + bytes);
  }

  /** An event file on a full disk is created and then finds no room for its header. */
  void createStreamFile(Path path) throws IOException {
    if (!take(4096)) {
      PrivateFiles.createFile(path);
      throw new IOException(FULL);
    }
  }
}
