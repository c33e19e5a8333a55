package dev.weft.trace;

/**
 * The named payload fields an event may carry; each {@link EventKind} lists the ones it has, in
 * order.
 */
public enum Field {
  /** Region id: the woven call site or user region (a {@link RegionDef}). */
  REGION,
  /** Pool id (a {@link PoolDef}); 0 when unknown. */
  POOL,
  /** Parallelism the pool offered when a region was forked. */
  PARALLELISM,
  /** Task id: identity of a task object, unique among live tasks. */
  TASK,
  /**
   * What a join waits for: a task id, or a Java thread id for {@code Thread.join}; 0 when unknown.
   */
  TARGET,
  /** Lock, barrier, latch or phaser id (an {@link ObjectDef}). */
  OBJECT,
  /** Barrier generation or phaser phase. */
  GENERATION,
  /** Barrier outcome flags ({@link BarrierOutcome}). */
  OUTCOME,
  /** Lock acquisition flags ({@link LockFlags}). */
  FLAGS,
  /** What kind of wait ({@link WaitKind}). */
  WAIT_KIND,
  /** A number of events or tasks. */
  COUNT,
  /** A Java thread id. */
  THREAD,
  /** A duration in nanoseconds. */
  DURATION
}
