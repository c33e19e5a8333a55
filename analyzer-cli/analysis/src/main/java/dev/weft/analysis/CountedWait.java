package dev.weft.analysis;

import java.util.List;

/**
 * One part of a wait that the analysis counted in one property: a lock request, barrier stay, join
 * wait, condition wait or spin of one thread (or a task's stay in its pool's queue), as handed to
 * an {@link Analyzer.WaitSink}. A flyweight: valid only during the call.
 *
 * <p>A wait counted in two properties (a master's join wait: {@code join_wait} and, after the
 * region's last task, {@code thread_management}) comes as two parts with the same start and end.
 * Over a run, the parts of a property sum to its exclusive severity.
 */
public final class CountedWait {
  private final Replay replay;
  String kind;
  String construct;
  int thread;
  long start;
  long end;
  String property;
  int node;
  long ns;
  long object;
  int blocker;

  CountedWait(Replay replay) {
    this.replay = replay;
  }

  /**
   * What was waited for: {@code lock}, {@code monitor}, {@code barrier}, {@code join}, {@code
   * condition}, {@code spin} or {@code queue} (a task waiting in its pool's queue).
   */
  public String kind() {
    return kind;
  }

  /**
   * The construct (its {@code ConstructKind} id: {@code reentrant_lock}, {@code cyclic_barrier},
   * {@code future_get} …), the wait kind ({@code object_wait}, {@code park} …) or the pool's name
   * for {@code queue}; null when unknown.
   */
  public String construct() {
    return construct;
  }

  /** The waiting thread's index (the creating thread's for {@code queue}). */
  public int thread() {
    return thread;
  }

  /** Its stream id in the trace. */
  public int stream() {
    return replay.threads[thread].stream;
  }

  /** Its name, as in {@code by_thread}. */
  public String threadName() {
    return replay.threads[thread].name;
  }

  /** Start of the wait (trace clock, ns). */
  public long start() {
    return start;
  }

  /** End of the wait (trace clock, ns): the departure, acquisition, exit or task start. */
  public long end() {
    return end;
  }

  /** The property that counted this part. */
  public String property() {
    return property;
  }

  /** The call-path node the part is attributed to. */
  public int node() {
    return node;
  }

  /**
   * The call path of {@link #node()}: region labels from the outermost, as in {@code by_callpath}.
   */
  public List<String> callpath() {
    return replay.tree.path(replay.defs(), node);
  }

  /** The part, in ns: at most {@code end - start} (time inside it running tasks excluded). */
  public long ns() {
    return ns;
  }

  /** The lock or barrier object's id, 0 when none. */
  public long object() {
    return object;
  }

  /**
   * The thread waited for, when the trace says: the lock's releaser whose release came after the
   * request, or the barrier generation's last arrival; -1 when unknown.
   */
  public int blocker() {
    return blocker;
  }

  /** The name of {@link #blocker()}, or null. */
  public String blockerName() {
    return blocker < 0 ? null : replay.threads[blocker].name;
  }
}
