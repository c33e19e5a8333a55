package dev.weft.trace;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The background thread that allocates, maps and pre-touches the next window of every stream before
 * its owner needs it, so that page faults stay off the application's threads; when no window is
 * asked for, it makes spare event files for threads yet to start ({@link SpareStreamFiles}).
 */
final class WindowPreparer implements Runnable {
  private final TraceWriter writer;
  private final ConcurrentLinkedQueue<StreamFile> queue = new ConcurrentLinkedQueue<>();
  private final Thread thread;
  private volatile boolean stopped;

  WindowPreparer(TraceWriter writer, java.util.concurrent.ThreadFactory factory) {
    this.writer = writer;
    this.thread = factory.newThread(this);
    thread.setDaemon(true);
    thread.start();
  }

  Thread thread() {
    return thread;
  }

  /** Looks again for work (a spare event file may be wanted). */
  void wake() {
    LockSupport.unpark(thread);
  }

  void submit(StreamFile file) {
    queue.add(file);
    LockSupport.unpark(thread);
  }

  @Override
  public void run() {
    while (!stopped) {
      StreamFile f = queue.poll();
      if (f == null) {
        if (writer.sparesWanted()) {
          try {
            writer.makeSpares();
          } catch (Throwable t) {
            writer.problem("spare event file failed: " + t);
          }
          continue;
        }
        LockSupport.parkNanos(this, 50_000_000L);
        continue;
      }
      try {
        f.prepareQueued(writer);
      } catch (Throwable t) {
        writer.problem("window preparation failed: " + t);
      }
    }
  }

  void stop() {
    stopped = true;
    LockSupport.unpark(thread);
  }
}
