package dev.weft.agent.config;

/**
 * The construct families that {@code constructs=} switches on and off, one per row of the event
 * model (BRIEF §4). Each instrumentation plug-in belongs to exactly one family.
 */
public enum Family {
  /** {@code @Traced} methods and {@code Weft.region(...)}: ENTER/EXIT; {@code Weft.on()/off()}. */
  REGIONS("regions"),
  /** ForkJoinPool, ForkJoinTask, parallel streams: FORK/JOIN, TASK_*, JOIN_WAIT, HELP. */
  FORKJOIN("forkjoin"),
  /** ExecutorService submit/execute and task runs, awaitTermination: TASK_*, JOIN_WAIT. */
  EXECUTORS("executors"),
  /** CompletableFuture async stages, Future.get: TASK_*, JOIN_WAIT. */
  FUTURES("futures"),
  /** Thread.join and other waits for forked threads: JOIN_WAIT. */
  JOINS("joins"),
  /** {@code synchronized} blocks and methods: LOCK_*. */
  MONITORS("monitors"),
  /** ReentrantLock, read/write locks, StampedLock, Semaphore: LOCK_*. */
  LOCKS("locks"),
  /** CyclicBarrier, Phaser, CountDownLatch: BARRIER_*. */
  BARRIERS("barriers"),
  /**
   * Object.wait, Condition.await, LockSupport.park, Thread.sleep, acquires of synchronizers built
   * on AbstractQueuedSynchronizer, blocking queues' take and put, notify/signal: WAIT_*, NOTIFY.
   */
  WAITS("waits"),
  /**
   * Waits for the network: a selector's select, a server socket's accept, HttpClient.send, a read
   * from a socket's stream, the JDK's HttpClient and HTTP server selector loops: WAIT_*.
   */
  NETWORK("network"),
  /** Thread.onSpinWait and busy waits: SPIN_*. */
  SPIN("spin"),
  /** Thread start, begin and end: THREAD_*. */
  THREADS("threads");

  private final String id;

  Family(String id) {
    this.id = id;
  }

  /** The name used in {@code constructs=}. */
  public String id() {
    return id;
  }

  /** The family named {@code id}, or null. */
  public static Family ofId(String id) {
    for (Family f : values()) {
      if (f.id.equals(id)) {
        return f;
      }
    }
    return null;
  }
}
