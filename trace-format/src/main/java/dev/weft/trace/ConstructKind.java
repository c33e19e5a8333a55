package dev.weft.trace;

/**
 * What a region descriptor describes (POMP's construct kind). Codes are stored in REGION
 * definitions and are a public contract: never renumber, only add.
 */
public enum ConstructKind {
  UNKNOWN(0, "unknown"),
  USER_REGION(1, "user_region"),
  TRACED_METHOD(2, "traced_method"),
  PARALLEL_STREAM(3, "parallel_stream"),
  FORK_JOIN_POOL(4, "fork_join_pool"),
  FORK_JOIN_TASK(5, "fork_join_task"),
  EXECUTOR(6, "executor"),
  COMPLETABLE_FUTURE(7, "completable_future"),
  FUTURE_GET(8, "future_get"),
  THREAD_JOIN(9, "thread_join"),
  THREAD_START(10, "thread_start"),
  AWAIT_TERMINATION(11, "await_termination"),
  MONITOR(12, "monitor"),
  SYNCHRONIZED_METHOD(13, "synchronized_method"),
  REENTRANT_LOCK(14, "reentrant_lock"),
  READ_WRITE_LOCK(15, "read_write_lock"),
  STAMPED_LOCK(16, "stamped_lock"),
  SEMAPHORE(17, "semaphore"),
  CYCLIC_BARRIER(18, "cyclic_barrier"),
  PHASER(19, "phaser"),
  COUNT_DOWN_LATCH(20, "count_down_latch"),
  OBJECT_WAIT(21, "object_wait"),
  CONDITION_AWAIT(22, "condition_await"),
  SLEEP(23, "sleep"),
  PARK(24, "park"),
  SPIN(25, "spin"),
  NOTIFY(26, "notify"),
  VIRTUAL_THREAD(27, "virtual_thread"),
  /** An acquire of a synchronizer of the program's own, built on AbstractQueuedSynchronizer. */
  SYNCHRONIZER(28, "synchronizer"),
  /** A blocking queue's take or put (and their timed and deque forms). */
  BLOCKING_QUEUE(29, "blocking_queue"),
  /** A selector's select, waiting for a channel to become ready. */
  SELECTOR(30, "selector"),
  /** A blocking network call: a server socket's accept, a socket stream's read, HttpClient.send. */
  SOCKET(31, "socket"),
  /**
   * A task an executor was given to run later ({@code ScheduledThreadPoolExecutor.schedule} with a
   * delay): its wait until it is due is on purpose, not a wait in the pool's queue.
   */
  DELAYED_TASK(32, "delayed_task");

  private static final ConstructKind[] BY_CODE = new ConstructKind[256];

  static {
    for (ConstructKind k : values()) {
      BY_CODE[k.code] = k;
    }
  }

  private final int code;
  private final String id;

  ConstructKind(int code, String id) {
    this.code = code;
    this.id = id;
  }

  public int code() {
    return code;
  }

  public String id() {
    return id;
  }

  /** The kind with this code; {@link #UNKNOWN} for codes this version does not know. */
  public static ConstructKind ofCode(int code) {
    ConstructKind k = (code >= 0 && code < 256) ? BY_CODE[code] : null;
    return k == null ? UNKNOWN : k;
  }
}
