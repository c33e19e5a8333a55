package dev.weft.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Event files made ahead of need by the background thread, so that a thread's first event does not
 * wait for a file to be created and its first window to be allocated and mapped: that took 0.4–2 ms
 * per thread on an idle ext4 disk and tens of milliseconds on a loaded host, all of it on the new
 * thread at its start. A spare lives under a name readers ignore ({@code events/N.spare}, see
 * FORMAT.md) until a stream takes it: the stream id goes into its header, then the file is renamed
 * to the stream's name. A spare left by a killed process is ignored; the close deletes the rest. No
 * spares are made under a size limit ({@code maxsize=}) or once the disk is full.
 */
final class SpareStreamFiles {
  /** Spares kept ready: a burst of new threads (a pool starting) takes a few at once. */
  static final int KEPT = 2;

  /** The name of spare files in the events directory. */
  static final String SUFFIX = ".spare";

  private final Path eventsDir;
  private final ConcurrentLinkedQueue<StreamFile> ready = new ConcurrentLinkedQueue<>();
  private final AtomicInteger names = new AtomicInteger();
  private volatile boolean off;
  private final Object making = new Object();

  SpareStreamFiles(Path eventsDir) {
    this.eventsDir = eventsDir;
  }

  /**
   * The spare file made into stream {@code id}'s event file, or null when none is ready or it could
   * not be renamed (the caller then creates the file itself).
   */
  StreamFile take(int id, Path streamPath) {
    StreamFile f = ready.poll();
    if (f == null) {
      return null;
    }
    try {
      f.adopt(id, streamPath);
      return f;
    } catch (IOException | RuntimeException e) {
      discard(f);
      return null;
    }
  }

  /** Whether more spares are wanted (checked by the background thread). */
  boolean wanted() {
    return !off && ready.size() < KEPT;
  }

  /** On the background thread: makes spares until {@link #KEPT} are ready or one fails. */
  void topUp(TraceWriter writer, long traceId, int firstWindow, int maxWindow) {
    while (true) {
      // One spare at a time under the lock, so that stop() returns only when none is being made.
      synchronized (making) {
        if (!wanted() || writer.isClosed()) {
          return;
        }
        Path p = eventsDir.resolve(names.getAndIncrement() + SUFFIX);
        StreamFile f;
        try {
          f = StreamFile.spare(writer, p, traceId, firstWindow, maxWindow);
        } catch (IOException | RuntimeException e) {
          // E.g. a full disk: nothing is left behind, and streams are then opened on their own
          // threads, as without spares.
          off = true;
          try {
            Files.deleteIfExists(p);
          } catch (IOException | RuntimeException ignored) {
            // A spare left behind is ignored by readers.
          }
          return;
        }
        if (f == null) {
          off = true;
          return;
        }
        ready.add(f);
      }
    }
  }

  /**
   * No more spares (the trace closes, or a test simulates a full disk): waits for a spare being
   * made, then deletes those ready.
   */
  void stop() {
    synchronized (making) {
      off = true;
    }
    discardAll();
  }

  private void discardAll() {
    for (StreamFile f; (f = ready.poll()) != null; ) {
      discard(f);
    }
  }

  private static void discard(StreamFile f) {
    f.close();
    try {
      Files.deleteIfExists(f.path());
    } catch (IOException | RuntimeException e) {
      // A spare left behind is ignored by readers.
    }
  }
}
