package dev.weft.report;

import java.util.List;

/**
 * What a thread is doing during a timeline interval. Work is drawn in blues and green; the waits
 * each in their own colour: lock vermillion, barrier yellow, join indigo, condition wine, network
 * violet, spin black, sleep light grey; a held lock is a thin orange strip under the activity. The
 * colours come from the Okabe–Ito and Tol palettes (network's violet, which neither has room for,
 * was searched for against the others with the same measure) and were chosen so that every wait
 * kind differs from every other kind by at least 20 CIELAB units with normal vision and as
 * simulated for protanopia, deuteranopia and tritanopia (the lock-hold strip, which also differs in
 * shape, by at least 15); {@code IntervalKindColoursTest} checks this. The legend names every kind,
 * so colour is never the only cue. The page takes ids, labels, colours and the properties each kind
 * shows from here.
 */
public enum IntervalKind {
  /** A task running on a thread: {@code task_begin .. task_end}. */
  TASK("task", "task", "#009E73", "execution", "work_imbalance"),
  /** A user region or traced method: {@code enter .. exit}. */
  REGION("region", "region", "#56B4E9", "execution", "work_imbalance"),
  /** A parallel region on its master: {@code fork .. join}. */
  PARALLEL("parallel", "parallel region (fork..join)", "#0072B2", "execution", "work_imbalance"),
  /** Waiting for a lock: {@code lock_request .. lock_acquired}. */
  LOCK_WAIT(
      "lock_wait",
      "lock wait",
      "#D55E00",
      "lock_contention",
      "monitor_contention",
      "lock_api_contention"),
  /** Waiting at a barrier, latch or phaser: {@code barrier_enter .. barrier_exit}. */
  BARRIER_WAIT("barrier_wait", "barrier wait", "#F0E442", "barrier_wait"),
  /** Waiting for forked or submitted work: {@code join_wait_enter .. join_wait_exit}. */
  JOIN_WAIT("join_wait", "join wait", "#332288", "join_wait"),
  /** {@code Object.wait}, {@code Condition.await}, park, yield: {@code wait_enter .. wait_exit}. */
  WAIT("wait", "condition wait / park", "#882255", "condition_wait"),
  /**
   * Waiting for the network: a {@code wait_enter .. wait_exit} of kind select, accept (the loop
   * idle), socket_read or http_send (waiting for a peer).
   */
  NETWORK(
      "network",
      "network (select, accept, socket read, HTTP)",
      "#9933FF",
      "network_idle",
      "io_wait"),
  /** Busy-waiting: {@code spin_enter .. spin_exit}. */
  SPIN("spin", "spin wait", "#000000", "spin_wait"),
  /**
   * {@code Thread.sleep}: a {@code wait_enter .. wait_exit} of the sleep kind; waits for no one.
   * Also a pool worker waiting for its next task (kind next_task) and a {@code java.util.Timer}'s
   * thread waiting for its next task to come due (kind timer_due): idle, as a JDK pool's worker
   * between tasks, which is not drawn at all.
   */
  SLEEP("sleep", "sleep, or idle waiting for a task", "#BBBBBB", "task_queue_idle", "timer_idle"),
  /**
   * A lock held: {@code lock_acquired .. lock_released} (outermost acquisition of a re-entrant
   * lock). Drawn as a strip under the thread's activity, not as an activity of its own, so it is
   * the last kind and not part of a summarised timeline's columns.
   */
  LOCK_HOLD("lock_hold", "lock held (strip)", "#E69F00", "delay_cost_lock");

  /** The kinds that are a thread's activity (all but {@link #LOCK_HOLD}). */
  static final int ACTIVITIES = LOCK_HOLD.ordinal();

  private final String id;
  private final String label;
  private final String color;
  private final List<String> properties;

  IntervalKind(String id, String label, String color, String... properties) {
    this.id = id;
    this.label = label;
    this.color = color;
    this.properties = List.of(properties);
  }

  /** The analysis properties whose time this kind of interval shows (highlighted with them). */
  public List<String> properties() {
    return properties;
  }

  /** Stable lower_snake_case id, used in the page's data. */
  public String id() {
    return id;
  }

  /** Legend text. */
  public String label() {
    return label;
  }

  /** CSS colour, {@code #RRGGBB}. */
  public String color() {
    return color;
  }
}
