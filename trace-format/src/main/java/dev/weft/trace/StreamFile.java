package dev.weft.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file behind one {@link StreamWriter}: its header and its windows. A window is allocated on
 * disk (zeros written through the channel, so a full disk is an {@link IOException} here and never
 * a SIGBUS on an application thread), mapped, and pre-touched page by page, normally by the
 * background preparer so that the owning thread takes no page faults. Windows follow each other in
 * the file without gaps: each is one block of the format.
 *
 * <p><b>Important:</b> {@link FileChannel} closes itself when a thread blocked in it is interrupted
 * ({@code ClosedByInterruptException}). Application threads are interrupted all the time, so an
 * interrupted thread never allocates here, and a channel found closed is reopened; the
 * application's interrupt status is left as it was.
 */
final class StreamFile {
  private static final int PAGE = 4096;
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 * 1024).asReadOnlyBuffer();

  private volatile Path path;
  private final MappedByteBuffer header;
  private final int maxWindow;

  // Guarded by this (the constructor aside).
  private FileChannel channel;
  private long nextOffset = TraceFiles.EVENTS_HEADER_SIZE;
  private int nextSize;
  private boolean queued;
  private boolean closed;
  private volatile MappedByteBuffer prepared;

  StreamFile(Path path, int stream, long traceId, int firstWindow, int maxWindow)
      throws IOException {
    this.path = path;
    this.maxWindow = maxWindow;
    this.nextSize = firstWindow;
    FileChannel ch = null;
    boolean interrupted = Thread.interrupted();
    try {
      ch =
          FileChannel.open(
              path,
              java.util.Set.of(
                  StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
              PrivateFiles.file());
      // The header and one zero byte: the stream's valid end, until the first window replaces it.
      ByteBuffer h =
          ByteBuffer.allocate(TraceFiles.EVENTS_HEADER_SIZE + 1).order(ByteOrder.LITTLE_ENDIAN);
      h.put(TraceFiles.EVENTS_MAGIC);
      h.putShort((short) TraceFiles.VERSION_MAJOR);
      h.putShort((short) TraceFiles.VERSION_MINOR);
      h.putInt(stream);
      h.putLong(0L);
      h.putLong(traceId);
      h.put((byte) TraceFiles.CODE_END);
      h.flip();
      while (h.hasRemaining()) {
        ch.write(h, h.position());
      }
      this.header = ch.map(FileChannel.MapMode.READ_WRITE, 0, TraceFiles.EVENTS_HEADER_SIZE);
      header.order(ByteOrder.LITTLE_ENDIAN);
      this.channel = ch;
    } catch (IOException | RuntimeException e) {
      if (ch != null) {
        ch.close();
      }
      throw e;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  Path path() {
    return path;
  }

  /** Writes the live drop count into the header (the owner calls this on every drop). */
  void publishDropped(long dropped) {
    header.putLong(TraceFiles.EVENTS_HEADER_DROPPED_OFFSET, dropped);
  }

  /** Asks the background preparer for the next window; cheap, never blocks for long. */
  void requestNext(TraceWriter writer) {
    synchronized (this) {
      if (queued || prepared != null || closed) {
        return;
      }
      queued = true;
    }
    boolean submitted = false;
    try {
      writer.preparer().submit(this);
      submitted = true;
    } finally {
      if (!submitted) {
        // The request did not reach the preparer (a stack overflow in the host's deep recursion
        // can strike inside submit): forget it, or this stream would never be served again and,
        // once dropping, would drop to its end.
        synchronized (this) {
          queued = false;
        }
      }
    }
  }

  /** Called by the preparer thread. */
  void prepareQueued(TraceWriter writer) {
    synchronized (this) {
      queued = false;
      if (prepared == null && !closed) {
        prepared = allocate(writer);
      }
    }
  }

  /**
   * The next window: the one prepared in the background if it is ready, else (if {@code
   * allocateNow} and the calling thread is not interrupted) one allocated on the caller's thread.
   * Null if none can be had now.
   */
  MappedByteBuffer takeNext(TraceWriter writer, boolean allocateNow, boolean first) {
    if (prepared == null && !allocateNow) {
      return null; // the cheap check a dropping stream makes on every event
    }
    synchronized (this) {
      MappedByteBuffer m = prepared;
      if (m != null) {
        prepared = null;
        return m;
      }
      if (!allocateNow || closed) {
        return null;
      }
      if (!first) {
        writer.countSynchronousWindow();
      }
      return allocate(writer);
    }
  }

  private MappedByteBuffer allocate(TraceWriter writer) {
    int size = nextSize;
    if (!writer.reserveBytes(size)) {
      return null;
    }
    boolean interrupted = Thread.interrupted();
    try {
      if (!channel.isOpen()) {
        channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
      }
      long off = nextOffset;
      long end = off + size;
      for (long p = off; p < end; ) {
        ByteBuffer z = ZEROS.duplicate();
        z.limit((int) Math.min(z.capacity(), end - p));
        p += channel.write(z, p);
      }
      MappedByteBuffer m = channel.map(FileChannel.MapMode.READ_WRITE, off, size);
      for (int i = 0; i < size; i += PAGE) {
        m.put(i, (byte) 0); // pre-fault the page for writing, off the owner's hot path
      }
      int following = (int) Math.min(2L * size, maxWindow);
      // Plain stores only from here: the caller's stack may be nearly exhausted (the host's deep
      // recursion), and a window mapped but not counted would leave a gap in the file.
      nextOffset = end;
      nextSize = following;
      return m;
    } catch (ClosedChannelException e) {
      // An interrupt that arrived during the I/O (or a close) closed the channel: it is reopened
      // on the next attempt.
      writer.releaseBytes(size);
      return null;
    } catch (IOException | RuntimeException | InternalError e) {
      writer.releaseBytes(size);
      writer.problem("cannot extend " + path.getFileName() + ": " + e.getMessage());
      return null;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * A spare file (see {@link SpareStreamFiles}) at {@code path}: header without a stream, first
   * window allocated. Null when no window could be had (the file is then deleted).
   */
  static StreamFile spare(
      TraceWriter writer, Path path, long traceId, int firstWindow, int maxWindow)
      throws IOException {
    StreamFile f = new StreamFile(path, 0, traceId, firstWindow, maxWindow);
    MappedByteBuffer first;
    synchronized (f) {
      first = f.allocate(writer);
      f.prepared = first;
    }
    if (first == null) {
      f.close();
      java.nio.file.Files.deleteIfExists(path);
      return null;
    }
    return f;
  }

  /** Makes a spare stream {@code stream}'s file: its id in the header, then its name. */
  synchronized void adopt(int stream, Path streamPath) throws IOException {
    header.putInt(TraceFiles.EVENTS_HEADER_STREAM_OFFSET, stream);
    java.nio.file.Files.move(path, streamPath, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    path = streamPath;
  }

  /** Stops allocating and closes the channel; mapped windows stay valid for a racing writer. */
  synchronized void close() {
    closed = true;
    try {
      channel.close();
    } catch (IOException e) {
      // Mappings stay valid after the channel closes; nothing is lost.
    }
  }
}
