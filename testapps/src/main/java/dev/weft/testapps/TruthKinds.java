package dev.weft.testapps;

/**
 * Names of the truth line's kinds. Where a kind measures what an analysis property reports, it is
 * named after the property's id with an {@code _ns} suffix; SCENARIOS.md defines each one.
 */
public final class TruthKinds {
  private TruthKinds() {}

  /** Time spent in the scenario's work (property {@code execution}), per thread. */
  public static final String BUSY_NS = "busy_ns";

  /** A serial phase on the master while the pool's workers have nothing to do, per thread. */
  public static final String SERIAL_NS = "serial_ns";

  /** Workers idle while none of their pool's work is in flight (property {@code idle_threads}). */
  public static final String IDLE_THREADS_NS = "idle_threads_ns";

  /** Team members idle while some of the team's work is in flight ({@code limited_parallelism}). */
  public static final String LIMITED_PARALLELISM_NS = "limited_parallelism_ns";

  /** Own arrival to own departure at a barrier, per thread (property {@code barrier_wait}). */
  public static final String BARRIER_WAIT_NS = "barrier_wait_ns";

  /** Part of the barrier wait: latest arrival of the generation minus own arrival. */
  public static final String BARRIER_WAIT_FOR_LAST_NS = "barrier_wait_for_last_ns";

  /** Part of the barrier wait: departure minus the latest arrival (release latency). */
  public static final String BARRIER_RELEASE_LATENCY_NS = "barrier_release_latency_ns";

  /**
   * Per thread: the waiting for the last arrival that the thread caused by arriving last (the sum
   * over generations it arrived last in of every other thread's wait for it).
   */
  public static final String DELAY_COST_BARRIER_NS = "delay_cost_barrier_ns";

  /**
   * Per thread: the lock waits its holds caused. Every contended acquisition's wait, from the
   * request to the last release before it, is split at the lock's releases in between, and each
   * piece is charged to the thread whose release ended it.
   */
  public static final String DELAY_COST_LOCK_NS = "delay_cost_lock_ns";

  /**
   * Per thread: its time on the run's critical path (the chain of execution and hand-overs that
   * decides the run's length), a hand-over's latency counted for the thread it hands over to.
   */
  public static final String CRITICAL_PATH_NS = "critical_path_ns";

  /**
   * Per thread: on-path time that {@link #CRITICAL_PATH_NS} and a trace may fairly give to
   * different threads, for each thread that may have it. Forks and submissions: a fork that starts
   * a pool worker returns only after the start, and a submission's call may take milliseconds
   * before it pushes the task (on a busy host, or loading classes); the truth counts such time from
   * the call, a trace from the task's push, counting the rest for the thread that runs the task as
   * the hand-over to it. A pool's termination that main awaits: a trace may hand it over from the
   * worker whose exit ended it. A comparison allows this much either way.
   */
  public static final String CRITICAL_PATH_AMBIGUOUS_NS = "critical_path_ambiguous_ns";

  /**
   * Per thread: the condition waits its notifications ended, each from the wait's start to the
   * notification (property {@code delay_cost_condition}).
   */
  public static final String DELAY_COST_CONDITION_NS = "delay_cost_condition_ns";

  /**
   * Per thread: the parts of other threads' waits that were charged to a thread which, at the time,
   * was itself waiting for this one (property {@code delay_cost_long_term}).
   */
  public static final String DELAY_COST_LONG_TERM_NS = "delay_cost_long_term_ns";

  /** Waiting in {@code Object.wait} for a notification, per thread ({@code condition_wait}). */
  public static final String CONDITION_WAIT_NS = "condition_wait_ns";

  /** Time in a selector's {@code select} and a server's {@code accept} ({@code network_idle}). */
  public static final String NETWORK_IDLE_NS = "network_idle_ns";

  /** Time in reads of a socket's stream, per thread (property {@code io_wait}). */
  public static final String IO_WAIT_NS = "io_wait_ns";

  /** Own request to own acquisition of a lock that was held (property {@code lock_contention}). */
  public static final String LOCK_CONTENTION_NS = "lock_contention_ns";

  /** Lock acquisitions per thread, contended or not. */
  public static final String LOCK_ACQUISITIONS = "lock_acquisitions";

  /** Lock acquisitions per thread that had to wait. */
  public static final String CONTENDED_ACQUISITIONS = "contended_acquisitions";

  /**
   * Blocked waiting for forked or submitted work, minus time spent running other tasks meanwhile.
   */
  public static final String JOIN_WAIT_NS = "join_wait_ns";

  /** Task submission to task begin, summed per pool (property {@code pool_queue_wait}). */
  public static final String POOL_QUEUE_WAIT_NS = "pool_queue_wait_ns";

  /** Tasks submitted per pool (the count behind {@link #POOL_QUEUE_WAIT_NS}). */
  public static final String POOL_TASKS = "pool_tasks";

  /** Submission to begin of each task, by task name. */
  public static final String TASK_QUEUE_WAIT_NS = "task_queue_wait_ns";

  /**
   * Own arrival to own departure at a spinning barrier, per thread (property {@code spin_wait}).
   */
  public static final String SPIN_WAIT_NS = "spin_wait_ns";

  /** Part of the spin wait: latest arrival of the generation minus own arrival. */
  public static final String SPIN_WAIT_FOR_LAST_NS = "spin_wait_for_last_ns";

  /** Work time per region and thread: {@code {"region": {"thread": ns}}}. */
  public static final String REGION_BUSY_NS = "region_busy_ns";

  /** Per region: (max − mean) / mean of {@link #REGION_BUSY_NS} over the region's team. */
  public static final String IMBALANCE = "imbalance";

  /**
   * Per region: the time lost to imbalance, summed over instances of Σ over the instance's team of
   * (max − own busy), each member at most its wait for the last arrival.
   */
  public static final String WORK_IMBALANCE_NS = "work_imbalance_ns";

  /** Tasks created, per pool. */
  public static final String TASKS_CREATED = "tasks_created";

  /** Elements processed, per thread. */
  public static final String ELEMENTS = "elements";

  /** User regions entered per region and thread: {@code {"region": {"thread": n}}}. */
  public static final String REGION_ENTRIES = "region_entries";
}
