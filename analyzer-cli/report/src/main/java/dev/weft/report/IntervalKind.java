package dev.weft.report;

/**
 * What a thread is doing during a timeline interval. The timeline colours each kind from the
 * Okabe–Ito palette (distinguishable with the common forms of colour blindness); the legend names
 * every kind, so colour is never the only cue. The page takes ids, labels and colours from here.
 */
public enum IntervalKind {
  /** A task running on a thread: {@code task_begin .. task_end}. */
  TASK("task", "task", "#009E73"),
  /** A user region or traced method: {@code enter .. exit}. */
  REGION("region", "region", "#56B4E9"),
  /** A parallel region on its master: {@code fork .. join}. */
  PARALLEL("parallel", "parallel region (fork..join)", "#0072B2"),
  /** Waiting for a lock: {@code lock_request .. lock_acquired}. */
  LOCK_WAIT("lock_wait", "lock wait", "#D55E00"),
  /** Waiting at a barrier, latch or phaser: {@code barrier_enter .. barrier_exit}. */
  BARRIER_WAIT("barrier_wait", "barrier wait", "#E69F00"),
  /** Waiting for forked or submitted work: {@code join_wait_enter .. join_wait_exit}. */
  JOIN_WAIT("join_wait", "join wait", "#CC79A7"),
  /** {@code Object.wait}, {@code Condition.await}, park, sleep: {@code wait_enter .. wait_exit}. */
  WAIT("wait", "wait / sleep / park", "#F0E442"),
  /** Busy-waiting: {@code spin_enter .. spin_exit}. */
  SPIN("spin", "spin wait", "#000000");

  private final String id;
  private final String label;
  private final String color;

  IntervalKind(String id, String label, String color) {
    this.id = id;
    this.label = label;
    this.color = color;
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
