package dev.weft.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The file behind one {@link StreamWriter}: its header and its windows. A window is allocated on disk
 * (zeros written through the channel, so a full disk is an {@link IOException} here and never a SIGBUS
 * on an application thread), mapped, and pre-touched page by page, normally by the background preparer
 * so that the owning thread takes no page faults.
 */
final class StreamFile {
  private static final int PAGE = 4096;
  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(64 * 1024).asReadOnlyBuffer();

  private final Path path;
  private final FileChannel channel;
  private final MappedByteBuffer header;
  private final int maxWindow;

  // Guarded by this.
  private long nextOffset = TraceFiles.EVENTS_HEADER_SIZE;
  private int nextSize;
  private volatile MappedByteBuffer prepared;
  private boolean queued;

  StreamFile(Path path, int stream, int firstWindow, int maxWindow) throws IOException {
    this.path = path;
    this.maxWindow = maxWindow;
    this.nextSize = firstWindow;
    this.channel =
        FileChannel.open(
            path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    ByteBuffer h = ByteBuffer.allocate(TraceFiles.EVENTS_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    h.put(TraceFiles.EVENTS_MAGIC);
    h.putShort((short) TraceFiles.VERSION_MAJOR);
    h.putShort((short) TraceFiles.VERSION_MINOR);
    h.putInt(stream);
    h.putLong(0L);
    h.putLong(0L);
    h.flip();
    while (h.hasRemaining()) {
      channel.write(h, h.position());
    }
    this.header = channel.map(FileChannel.MapMode.READ_WRITE, 0, TraceFiles.EVENTS_HEADER_SIZE);
    header.order(ByteOrder.LITTLE_ENDIAN);
  }

  Path path() {
    return path;
  }

  void publishDropped(long dropped) {
    header.putLong(TraceFiles.EVENTS_HEADER_DROPPED_OFFSET, dropped);
  }

  /** Asks the background preparer for the next window; cheap, never blocks. */
  void requestNext(TraceWriter writer) {
    synchronized (this) {
      if (queued || prepared != null) {
        return;
      }
      queued = true;
    }
    writer.preparer().submit(this);
  }

  /** Called by the preparer thread. */
  void prepareQueued(TraceWriter writer) {
    synchronized (this) {
      queued = false;
      if (prepared == null) {
        prepared = allocate(writer);
      }
    }
  }

  /**
   * The next window: the one prepared in the background if it is ready, else (if {@code allocateNow})
   * one allocated on the caller's thread. Null if none can be had.
   */
  MappedByteBuffer takeNext(TraceWriter writer, boolean allocateNow) {
    if (prepared == null && !allocateNow) {
      return null; // the cheap check a dropping stream makes on every event
    }
    synchronized (this) {
      MappedByteBuffer m = prepared;
      if (m != null) {
        prepared = null;
        return m;
      }
      if (!allocateNow) {
        return null;
      }
      writer.countSynchronousWindow();
      return allocate(writer);
    }
  }

  private MappedByteBuffer allocate(TraceWriter writer) {
    int size = nextSize;
    if (!writer.reserveBytes(size)) {
      return null;
    }
    try {
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
      nextOffset = end;
      nextSize = Math.min(size * 2, maxWindow);
      return m;
    } catch (IOException | RuntimeException | InternalError e) {
      writer.releaseBytes(size);
      writer.problem("cannot extend " + path.getFileName() + ": " + e.getMessage());
      return null;
    }
  }

  void closeChannel() {
    try {
      channel.close();
    } catch (IOException e) {
      // Mappings stay valid after the channel closes; nothing is lost.
    }
  }
}
