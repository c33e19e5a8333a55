package dev.weft.analysis;

/**
 * The seam between the replay and what consumes its findings: every typed occurrence the construct
 * families of the replay emit ({@link RegionReplay}, {@link LockReplay}, {@link BarrierReplay},
 * {@link TaskReplay}, {@link WaitReplay}, {@link ThreadReplay}), in the order the forward pass
 * finds them. {@link PropertyDispatch} hands them to the properties; another implementation (a
 * recorder for a backward pass, a merger for per-stream decoding) takes its place behind the same
 * calls. Occurrences are flyweights, valid only during the call.
 */
interface Occurrences {
  /** A pool worker's idle stretch. */
  void idle(IdleTime idle);

  /** A stretch of a join wait. */
  void joinWait(JoinWaitSegment join);

  /** One thread's stay in a barrier, latch or phaser. */
  void barrierWait(BarrierArrival arrival);

  /** One lock acquisition (or attempt) with a recorded request. */
  void lockAcquisition(LockAcquisition acquisition);

  /** A busy-wait loop. */
  void spin(WaitSpan spin);

  /** A wait of any kind (sleep, object wait, condition await, park, yield). */
  void waitSpan(WaitSpan wait);

  /** Execution time no property claimed. */
  void remainder(ThreadTime time);

  /** A task's first begin (or the end of the run for a task still queued). */
  void taskStart(TaskStart start);

  /** A parallel region's or barrier call site's busy time per thread, at the end. */
  void region(RegionBusy region);

  /** Whether anyone takes {@link #carrierSwitch}: building one costs a lookup. */
  boolean wantsCarrierSwitches();

  /** A carrier thread mounts or unmounts a virtual thread. */
  void carrierSwitch(CarrierSwitch carrierSwitch);
}
