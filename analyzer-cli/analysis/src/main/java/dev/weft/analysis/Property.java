package dev.weft.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * One analysis property (an EXPERT/Scalasca pattern): its metadata in a {@link PropertyInfo}
 * annotation, and the logic that turns what the replay engine found into severity cells (property ×
 * call path × thread).
 *
 * <p>The engine replays the trace and hands each property the occurrences it subscribes to by
 * overriding a callback ({@link #onBarrierWait}, {@link #onLockAcquisition}, ...). Occurrences are
 * flyweights: valid only during the call, never to be kept. A property under {@code time} claims
 * thread time with {@link ThreadTime#claim}; whatever no property claims is {@code execution}, so
 * the children of {@code time} partition every thread's lifetime by construction. Roots outside
 * {@code time} add severity with {@link #add}.
 *
 * <p><b>Parent and children.</b> When a property and its parent both override a callback, the
 * engine calls only the parent; the parent computes the wait once and passes it on with {@link
 * #children()} (Scalasca's notify). A new property is one class plus one line in {@link
 * PropertyRegistry}.
 */
public abstract class Property {
  private final PropertyInfo info;
  private final List<Property> children = new ArrayList<>();
  private final List<Property> childrenView = Collections.unmodifiableList(children);
  private Property parent;
  private int index = -1;
  private SeverityCube cube;

  protected Property() {
    info = getClass().getAnnotation(PropertyInfo.class);
    if (info == null) {
      throw new IllegalStateException(getClass().getName() + " has no @PropertyInfo");
    }
  }

  /** The metadata. */
  public final PropertyInfo info() {
    return info;
  }

  public final String id() {
    return info.id();
  }

  /** The parent, or null for a root. */
  public final Property parent() {
    return parent;
  }

  /** The children, in registry order. */
  public final List<Property> children() {
    return childrenView;
  }

  /** Position in the registry; the severity cube's property coordinate. */
  final int index() {
    return index;
  }

  final void bind(int index, Property parent, SeverityCube cube) {
    this.index = index;
    this.parent = parent;
    this.cube = cube;
    if (parent != null) {
      parent.children.add(this);
    }
  }

  /** Adds severity outside the time tree (for roots such as {@code pool_queue_wait}). */
  protected final void add(int node, int thread, long ns) {
    if (ns > 0) {
      cube.add(index, node, thread, ns);
    }
  }

  /**
   * The breakdown of this property's severity into causes, for the JSON {@code causes} object and
   * the report; null when the property has none.
   */
  public Map<String, Long> causes() {
    return null;
  }

  /**
   * Per-task latencies of a property in task time (not thread time), for the JSON {@code latency}
   * object and the report; null for properties in thread time.
   */
  public LatencyTable latency() {
    return null;
  }

  /**
   * Notes on what this property could not attribute as described, one line each, for the analysis'
   * notes; empty when there are none.
   */
  public List<String> notes() {
    return List.of();
  }

  /** Whether the severity is thread time (a share of CPU allocation time) rather than task time. */
  public final boolean threadTime() {
    return info.unit().equals("ns");
  }

  // ---- callbacks (default: not interested) ---------------------------------------------------

  /** A pool worker's idle time (no task, no activity of its own). */
  public void onIdle(IdleTime idle) {}

  /** A stretch of a join wait (time running or helping tasks inside the join excluded). */
  public void onJoinWait(JoinWaitSegment join) {}

  /** One thread's stay in a barrier, latch or phaser: arrival to departure. */
  public void onBarrierWait(BarrierArrival arrival) {}

  /** One lock acquisition (or attempt) that had a recorded request. */
  public void onLockAcquisition(LockAcquisition acquisition) {}

  /** A busy-wait loop (SPIN_ENTER..EXIT). */
  public void onSpin(WaitSpan spin) {}

  /** A WAIT_ENTER..EXIT of any kind (sleep, object wait, condition await, park, yield). */
  public void onWait(WaitSpan wait) {}

  /** Thread time no other property claimed: the thread was working. */
  public void onRemainder(ThreadTime time) {}

  /** A task's first begin (or the window end for a task still queued there). */
  public void onTaskStart(TaskStart start) {}

  /** A parallel region's or barrier's busy time per thread, once, at the end of the analysis. */
  public void onRegion(RegionBusy region) {}

  /** A carrier thread mounts or unmounts a virtual thread. */
  public void onCarrierSwitch(CarrierSwitch carrierSwitch) {}

  /**
   * A property's series over time, for the JSON {@code timeline} object and the report; null when
   * it has none.
   *
   * @param from the analysed window's start (trace clock, ns)
   * @param to its end
   * @param threadName a thread's name by its index
   */
  public AnalysisResult.Timeline timeline(long from, long to, IntFunction<String> threadName) {
    return null;
  }
}
