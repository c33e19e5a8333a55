package dev.weft.analysis;

import dev.weft.trace.Definitions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a recording made by an agent loaded into a running JVM ({@code weft attach}) could not see,
 * from the trace's attributes: said in the analysis header and its JSON, never left silent.
 *
 * <p>Frames already running at the attach keep their code, so their call sites are not woven. The
 * agent hooks some JDK wait methods themselves to see the waits such frames start (attribute {@code
 * agent.running_frames}: the construct families hooked) and reads the JVM's own monitor events for
 * their {@code synchronized} and {@code Object.wait}, from a moment seconds after the attach
 * ({@code agent.monitor_events_from}); every other kind of wait in those frames, and every wait
 * already in progress at the attach, is missing.
 */
final class AttachLimits {
  /** The attribute an attached agent writes: the families hooked for running frames. */
  static final String RUNNING_FRAMES = "agent.running_frames";

  /**
   * The attribute an attached agent writes when it read the JVM's monitor events: from when (trace
   * time), which is seconds after the attach (starting the JVM's event recorder takes that long).
   */
  static final String MONITOR_EVENTS_FROM = "agent.monitor_events_from";

  /**
   * The attribute an attached agent writes about the JVM's monitor events: what became of them, or
   * that they had not started (JFR starts in seconds) when the recording stopped.
   */
  static final String MONITOR_EVENTS = "agent.monitor_events";

  /** How {@value #MONITOR_EVENTS} begins when the JVM's events never came through. */
  static final String MONITOR_EVENTS_NOT_STARTED = "not started";

  /**
   * The attribute an attached agent writes: how many of the threads alive at the attach were
   * blocked or waiting then, and which ({@code 2 (worker-0 WAITING, pool-1 BLOCKED)}).
   */
  static final String WAITING_AT_ATTACH = "agent.threads_waiting_at_attach";

  /**
   * The attribute an attached agent writes: the waits in progress at the attach that it recorded
   * from the recording's start ({@code 2 (worker-0 CyclicBarrier.await, worker-1 synchronized; 0
   * lasted to the end)}).
   */
  static final String OPEN_AT_ATTACH = "agent.waits_open_at_attach";

  /**
   * The attribute an agent attached with {@code attach.skip_running=true} writes: the application
   * classes it left unwoven because a method of theirs was running ({@code 2 (com.acme.Worker,
   * com.acme.Server)}).
   */
  static final String SKIPPED_RUNNING = "agent.skipped_running_classes";

  /**
   * The attribute an attached agent writes once it has woven the classes loaded before the attach
   * (a trace time, a second or two after the attach in a large program): from then on the recording
   * sees what this header says; before, only the waits then in progress. The analysis window starts
   * there ({@link #analysedFrom}).
   */
  static final String RECORDING_FROM = "agent.recording_from";

  private AttachLimits() {}

  /** Whether the trace was recorded by an agent loaded into a running JVM. */
  static boolean attached(Definitions defs) {
    return "true".equals(defs.attributes().get("agent.attached"));
  }

  /**
   * The trace time an attached recording's analysis starts at ({@link #RECORDING_FROM}); {@code
   * Long.MIN_VALUE} (no limit) for a recording started with the JVM or without the attribute.
   */
  static long analysedFrom(Definitions defs) {
    return attached(defs) ? traceTime(defs, RECORDING_FROM) : Long.MIN_VALUE;
  }

  /**
   * A trace time the agent wrote as attribute {@code key}; {@code Long.MIN_VALUE} when it is absent
   * or not a number.
   */
  static long traceTime(Definitions defs, String key) {
    try {
      return Long.parseLong(defs.attributes().getOrDefault(key, ""));
    } catch (NumberFormatException e) {
      return Long.MIN_VALUE;
    }
  }

  /** What the recording could not see, one item each; null when the agent did not attach. */
  static List<String> of(Definitions defs) {
    if (!attached(defs)) {
      return null;
    }
    Set<String> hooked = Set.of(defs.attributes().getOrDefault(RUNNING_FRAMES, "").split(","));
    List<String> seen = new ArrayList<>();
    List<String> unseen = new ArrayList<>();
    (hooked.contains("locks") ? seen : unseen).add("ReentrantLock acquisitions");
    (hooked.contains("barriers") ? seen : unseen).add("CyclicBarrier waits");
    (hooked.contains("waits") ? seen : unseen).add("Condition waits");
    (hooked.contains("semaphores") ? seen : unseen).add("Semaphore acquisitions");
    (hooked.contains("read_write_locks") ? seen : unseen).add("read/write lock acquisitions");
    (hooked.contains("stamped_locks") ? seen : unseen).add("StampedLock acquisitions");
    (hooked.contains("latches") ? seen : unseen).add("CountDownLatch waits");
    (hooked.contains("phasers") ? seen : unseen).add("Phaser waits");
    (hooked.contains("joins") ? seen : unseen).add("Thread.join");
    (hooked.contains("futures") ? seen : unseen).add("Future.get and CompletableFuture joins");
    (hooked.contains("phaser_arrivals") ? seen : unseen).add("Phaser arrivals without a wait");
    (hooked.contains("forkjoin") ? seen : unseen).add("fork-join joins and invoke");
    (hooked.contains("thread_starts") ? seen : unseen).add("thread starts");
    (hooked.contains("selects") ? seen : unseen).add("selectors' select");
    (hooked.contains("accepts") ? seen : unseen).add("servers' accept");
    (hooked.contains("pool_workers") ? seen : unseen)
        .add("tasks of thread pool workers started before the attach");
    String monitorsFrom = monitorsFrom(defs);
    if (MONITORS_FROM_THE_START.equals(monitorsFrom)) {
      seen.add("synchronized contention and Object.wait, through the JVM's events");
    } else if (monitorsFrom != null) {
      seen.add("synchronized contention and Object.wait from " + monitorsFrom);
      unseen.add("synchronized contention and Object.wait before " + monitorsFrom);
    } else if (defs.attributes()
        .getOrDefault(MONITOR_EVENTS, "")
        .startsWith(MONITOR_EVENTS_NOT_STARTED)) {
      unseen.add(
          "synchronized contention, Object.wait (the JVM's monitor events had not started when"
              + " the recording stopped)");
    } else {
      unseen.add("synchronized contention, Object.wait");
    }
    unseen.add("Thread.sleep");
    unseen.add("LockSupport.park");
    unseen.add("blocking queues' take and put");
    unseen.add("waits in synchronizers built on AbstractQueuedSynchronizer");
    List<String> out = new ArrayList<>();
    String weaving = weaving(defs);
    if (weaving != null) {
      out.add(weaving);
    }
    String open = defs.attributes().get(OPEN_AT_ATTACH);
    if (open == null) {
      out.add("waits, regions and tasks already in progress when the recording started");
    } else {
      out.add(
          "regions and tasks already in progress when the recording started, and the part before"
              + " it of the waits then in progress (those of the application's code are recorded"
              + " from the recording's start, marked \"begun before the attach\", or \"begun while"
              + " the agent wove\" for those found when the recording started: "
              + open
              + ")");
    }
    out.add(
        "in code that was already running when the agent attached (methods entered before and"
            + " not left since): "
            + String.join("; ", unseen)
            + (seen.isEmpty() ? "" : " (seen there: " + String.join(", ", seen) + ")"));
    out.add(
        "synchronized methods of classes loaded before the attach: their acquisitions are"
            + " recorded without their wait");
    String waiting = defs.attributes().get(WAITING_AT_ATTACH);
    if (waiting != null && !waiting.equals("0")) {
      out.add(
          (open == null
                  ? "threads blocked or waiting when the agent attached, counted as running until"
                      + " their first recorded event: "
                  : "threads blocked or waiting when the agent attached whose wait is not the"
                      + " application's code's (inside the JDK, such as an idle executor"
                      + " worker's) count as running until their first recorded event; all"
                      + " waiting then: ")
              + waiting);
    }
    String skipped = defs.attributes().get(SKIPPED_RUNNING);
    if (skipped != null && !skipped.equals("0")) {
      out.add(
          "classes left unwoven because a method of theirs was running at the attach"
              + " (attach.skip_running), in all their methods, also those entered afresh: their"
              + " regions, tasks, thread starts, executor submissions, Thread.sleep and monitors"
              + " other than the JVM's events report (their JDK waits and joins are recorded): "
              + skipped);
    }
    return out;
  }

  /**
   * The time between the attach and {@link #RECORDING_FROM}, which the analysis leaves out; null
   * when there is no such time.
   */
  private static String weaving(Definitions defs) {
    long from = analysedFrom(defs);
    if (from == Long.MIN_VALUE || defs.clock() == null || from <= defs.clock().nanoBase()) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "the first %.2f s after the attach, while the agent wove the classes loaded before it"
            + " (only the waits then in progress were recorded): the analysis starts after them,"
            + " and what the recording saw meanwhile is counted as at that start",
        (from - defs.clock().nanoBase()) / 1e9);
  }

  /** What {@link #monitorsFrom} says when the JVM's events were read from the analysis's start. */
  private static final String MONITORS_FROM_THE_START = "";

  /**
   * When the JVM's own monitor events started to be read (attribute {@value #MONITOR_EVENTS_FROM},
   * a trace time), as seconds after the start of what is analysed (the attach, or {@link
   * #RECORDING_FROM}); {@link #MONITORS_FROM_THE_START} when they were read before that; null when
   * they were not read.
   */
  private static String monitorsFrom(Definitions defs) {
    String from = defs.attributes().get(MONITOR_EVENTS_FROM);
    if (from == null || defs.clock() == null) {
      return null;
    }
    try {
      long start = Math.max(defs.clock().nanoBase(), analysedFrom(defs));
      long at = Long.parseLong(from);
      if (at <= start) {
        return MONITORS_FROM_THE_START;
      }
      String covered = "";
      if (defs.closedCleanly() && defs.endTime() > at && at > start) {
        covered =
            String.format(
                Locale.ROOT,
                ", the last %.0f %% of the recording",
                100.0 * (defs.endTime() - at) / (defs.endTime() - start));
      }
      return String.format(
          Locale.ROOT,
          "%.1f s after the start%s, through the JVM's events",
          (at - start) / 1e9,
          covered);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
