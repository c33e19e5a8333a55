package dev.weft.agent.record;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * The JVM's own monitor events, read in-process while an attached agent records: a JFR {@link
 * RecordingStream} of {@code jdk.JavaMonitorEnter} and {@code jdk.JavaMonitorWait} with threshold 0
 * and stack traces, handed to {@link RunningMonitors}. The only class that uses {@code jdk.jfr}: a
 * runtime without that module fails here, and the recording goes on without these waits.
 *
 * <p>JFR's times are {@link Instant}s: the wall clock at its chunk's start plus the elapsed ticks,
 * which on HotSpot are the same monotonic clock as {@code System.nanoTime}. They are turned into
 * {@code System.nanoTime} with one offset (wall clock minus {@code nanoTime}, the tightest of 50
 * reads), taken when the stream starts.
 *
 * <p>The JVM records a wait only when its event was enabled at the wait's start, and the
 * recording's start takes 0.2–1.3 s after {@code start()} is called. So the moment from which the
 * events are complete is taken from the stream itself: a marker thread waits 2 ms on an object of
 * its own, again and again, until the first of its waits comes through; that wait's start, at most
 * a few milliseconds after the events were enabled, is {@link #from()}. When none came through
 * before the stop, nothing is claimed.
 */
final class JvmMonitorEvents {
  /** Longest wait for the last events at the stop, on JDKs without {@code stop()} (before 20). */
  private static final long LAST_FLUSH_NANOS = 3_000_000_000L;

  private final RunningMonitors sink;
  private final RecordingStream stream;
  private final long offset;
  private final Object flushes = new Object();
  private int flushCount;
  private Thread consumer;

  /** How long each of the marker's waits lasts, in milliseconds. */
  private static final long MARK_MILLIS = 2;

  /** The object the marker thread waits on; its waits' events are not the program's. */
  private final Object mark = new Object();

  private final Thread marker;

  /**
   * Start of the first of the marker's waits that came through ({@code System.nanoTime}): every
   * wait that starts from then on is among the events. -1 until then.
   */
  private volatile long from = -1;

  private volatile boolean ending;

  private JvmMonitorEvents(RunningMonitors sink, EventPath path) {
    this.sink = sink;
    RecordingStream s = new RecordingStream();
    s.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ZERO).withStackTrace();
    s.enable("jdk.JavaMonitorWait").withThreshold(Duration.ZERO).withStackTrace();
    s.onEvent("jdk.JavaMonitorEnter", e -> take(RunningMonitors.ENTER, e, path));
    s.onEvent("jdk.JavaMonitorWait", e -> take(RunningMonitors.WAIT, e, path));
    s.onFlush(
        () -> {
          synchronized (flushes) {
            flushCount++;
            flushes.notifyAll();
          }
        });
    this.stream = s;
    this.offset = wallMinusNano();
    this.marker = new Thread(this::markStart, "weft-monitor-events-start");
    marker.setDaemon(true);
    path.ignore(marker);
  }

  /**
   * When the events became complete ({@code System.nanoTime}): every monitor wait that started from
   * then on is reported; -1 when the stream had not delivered any event before the stop.
   */
  long from() {
    return from;
  }

  /** The marker thread: short waits until the first comes through the stream (see class doc). */
  private void markStart() {
    try {
      while (from < 0 && !ending) {
        synchronized (mark) {
          mark.wait(MARK_MILLIS);
        }
      }
    } catch (InterruptedException e) {
      // the stop
    }
  }

  /**
   * Reads the events on the calling thread until the stream is closed. Not {@code startAsync}: its
   * thread is not a daemon, and would keep a program that ends by returning from main alive.
   */
  void run() {
    marker.start();
    stream.start();
  }

  /** Closes a stream that never ran. */
  void discard() {
    ending = true;
    sink.close();
    stream.close();
  }

  /** Starts reading the JVM's monitor events into {@code sink}; throws when JFR is not there. */
  static JvmMonitorEvents start(RunningMonitors sink, EventPath path) {
    return new JvmMonitorEvents(sink, path);
  }

  private void take(int kind, RecordedEvent e, EventPath path) {
    if (consumer == null) {
      consumer = Thread.currentThread();
      path.ignore(consumer); // the consumer's own work is not the program's
    }
    try {
      RecordedThread t = e.getThread();
      RecordedStackTrace st = e.getStackTrace();
      if (t == null || st == null) {
        return;
      }
      if (t.getJavaThreadId() == marker.getId()) {
        if (from < 0) {
          from = nanos(e.getStartTime());
        }
        return;
      }
      List<RunningMonitors.Frame> frames = new ArrayList<>();
      for (RecordedFrame f : st.getFrames()) {
        if (!f.isJavaFrame()) {
          continue;
        }
        frames.add(
            new RunningMonitors.Frame(
                f.getMethod().getType().getName(),
                f.getMethod().getName(),
                f.getMethod().getDescriptor(),
                f.getBytecodeIndex()));
        if (frames.size() == 8) {
          break; // the user's frame is among the top ones
        }
      }
      String monitorClass =
          e.hasField("monitorClass") && e.getClass("monitorClass") != null
              ? e.getClass("monitorClass").getName()
              : "java.lang.Object";
      long address = e.hasField("address") ? e.getLong("address") : 0;
      sink.event(
          kind,
          t.getJavaThreadId(),
          t.getJavaName() == null ? "" : t.getJavaName(),
          nanos(e.getStartTime()),
          nanos(e.getEndTime()),
          address,
          monitorClass,
          frames);
    } catch (RuntimeException ex) {
      // One event less; the stream goes on.
    }
  }

  private long nanos(Instant i) {
    return i.getEpochSecond() * 1_000_000_000L + i.getNano() - offset;
  }

  /**
   * Stops at {@code stopAt} ({@code System.nanoTime}): waits, at most {@code waitNanos}, for the
   * events of waits that ended before it, then closes the stream. On JDK 20+ {@code stop()} flushes
   * them; before, the stream is flushed about once a second, and two flushes after the stop include
   * them.
   */
  void stop(long stopAt, long waitNanos) {
    ending = true;
    sink.stopAt(stopAt);
    if (waitNanos <= 0) {
      sink.close(); // the JVM's exit: JFR shuts itself down, and nothing more is written
      return;
    }
    // On a thread of its own: at the JVM's exit JFR shuts down too, and a stop may never return.
    Thread last = new Thread(this::deliverLast, "weft-monitor-events-stop");
    last.setDaemon(true);
    last.start();
    try {
      last.join(Math.max(1, waitNanos / 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      stream.close();
      stream.awaitTermination(Duration.ofSeconds(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // Closed as far as it goes.
    }
    sink.close();
  }

  private void deliverLast() {
    boolean stopped = false;
    try {
      Method stop = RecordingStream.class.getMethod("stop");
      stop.invoke(stream);
      stopped = true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      // Before JDK 20: wait for the periodic flushes below.
    }
    if (!stopped) {
      long deadline = System.nanoTime() + LAST_FLUSH_NANOS;
      synchronized (flushes) {
        int target = flushCount + 2;
        try {
          long left;
          while (flushCount < target && (left = deadline - System.nanoTime()) > 0) {
            flushes.wait(Math.max(1, left / 1_000_000));
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** Wall clock minus {@code System.nanoTime}, from the tightest of 50 paired reads. */
  private static long wallMinusNano() {
    long best = Long.MAX_VALUE;
    long offset = 0;
    for (int i = 0; i < 50; i++) {
      long a = System.nanoTime();
      Instant now = Instant.now();
      long b = System.nanoTime();
      if (b - a < best) {
        best = b - a;
        offset = now.getEpochSecond() * 1_000_000_000L + now.getNano() - (a + (b - a) / 2);
      }
    }
    return offset;
  }
}
