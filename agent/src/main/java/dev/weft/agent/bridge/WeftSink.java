package dev.weft.agent.bridge;

/**
 * Receiver of the events that {@link WeftBridge} forwards: one method per event kind, mirroring the
 * trace writer's {@code StreamWriter}. The agent's recorder is the only implementation.
 *
 * <p><b>Important:</b> the shaded agent jar relocates this package to {@code java.lang}, and the
 * agent defines the class in {@code java.base} so that code woven into JDK classes can see it. It
 * must therefore reference nothing but JDK types.
 *
 * <p>Objects are passed as they are (a lock, a task, a pool); turning them into ids is the
 * recorder's business. Region ids come from the agent's region registry.
 */
public abstract class WeftSink {

  /**
   * Whether {@link WeftBridge#lockFirstTry} may make a lock call's first attempt. Not while hooks
   * inside {@code ReentrantLock}'s own methods record (an attached agent's): they would take the
   * bridge's {@code tryLock()} for one of the program's.
   */
  boolean lockFirstTries = true;

  /** For subclasses. */
  protected WeftSink() {}

  /** Lock calls make their first attempt themselves, bracketed; call before installing the sink. */
  public final void noLockFirstTries() {
    lockFirstTries = false;
  }

  // ---- regions (POMP enter/exit)
  // -----------------------------------------------------------------

  /** A woven construct or {@code @Traced} method is entered. */
  public abstract void enter(int region);

  /** A region entered by {@link #enter} is left (normally or by an exception). */
  public abstract void exit(int region);

  /** {@code Weft.region(name)} with a name known at weave time: enters and remembers the region. */
  public abstract void userRegionEnter(int region);

  /** {@code Weft.region(name)} with a name computed at run time, at call site {@code site}. */
  public abstract void userRegionEnter(String name, int site);

  /** {@code Region.close()}: exits the innermost region entered with {@code userRegionEnter}. */
  public abstract void userRegionExit();

  // ---- measurement control
  // -----------------------------------------------------------------------

  /** {@code Weft.on()}: resumes recording (MEASUREMENT_ON). */
  public abstract void measurementOn();

  /** {@code Weft.off()}: pauses recording (MEASUREMENT_OFF); nothing else is recorded until on. */
  public abstract void measurementOff();

  /** True while events are being recorded. */
  public abstract boolean isRecording();

  // ---- fork/join and tasks
  // -----------------------------------------------------------------------

  /** The calling thread forks parallel work on {@code pool} (a pool object, or null if unknown). */
  public abstract void fork(int region, Object pool, int parallelism);

  /** The fork at {@code region} is joined: the forked work is complete. */
  public abstract void join(int region, Object pool);

  /** A task is created or submitted (the submit site). */
  public abstract void taskCreate(int region, Object task, Object pool);

  /**
   * A task is queued to run when it is due ({@code task} a {@code java.util.concurrent.Delayed}):
   * created at {@code region} if it is due now, at {@code delayedRegion} if it is due later.
   */
  public abstract void taskScheduled(int region, int delayedRegion, Object task, Object pool);

  /**
   * The executor gave {@code task} up before it ran (rejected at its submission, or discarded from
   * the queue): it is recorded as begun and ended at once, where it was given up.
   */
  public abstract void taskWithdrawn(Object task);

  /** Every task of {@code tasks} (a list) was given up before it ran ({@code shutdownNow}). */
  public abstract void tasksWithdrawn(Object tasks);

  /** {@code task} was taken out of its executor's queue ({@code remove}) if {@code removed}. */
  public abstract void taskRemoved(boolean removed, Object task);

  /**
   * {@code executor} rejected {@code task} and its rejection handler returned (or threw); after a
   * handler of the program's own, the task is withdrawn unless the handler queued it after all.
   */
  public abstract void taskRejected(Object executor, Object task);

  /** The calling thread starts executing {@code task}. */
  public abstract void taskBegin(Object task);

  /** The calling thread finished executing {@code task}. */
  public abstract void taskEnd(Object task);

  /**
   * Aggregated tasks: {@code count} tasks of {@code region} ran for {@code durationNanos} in total.
   */
  public abstract void taskSummary(int region, Object pool, long count, long durationNanos);

  /**
   * The thread starts waiting for forked or submitted work ({@code target}: task, thread, or null).
   */
  public abstract void joinWaitEnter(int region, Object target);

  /** The join wait at {@code region} ends. */
  public abstract void joinWaitExit(int region);

  /**
   * A thread running a fork-join task blocks (parks) inside a join of {@code task}. With aggregated
   * tasks this is recorded as a join wait (its busy time stops); otherwise the join is already
   * recorded where the application called it, and this is ignored.
   */
  public abstract void joinBlockedEnter(int region, Object task);

  /** The blocking started by {@link #joinBlockedEnter} ends. */
  public abstract void joinBlockedExit(int region);

  /** Inside a join wait, the thread starts running other tasks (fork-join helping). */
  public abstract void helpEnter(int region);

  /** The helping started by {@link #helpEnter} ends. */
  public abstract void helpExit(int region);

  // ---- barriers
  // ----------------------------------------------------------------------------------

  /** Arrival at a barrier, latch or phaser in its {@code generation} (phase). */
  public abstract void barrierEnter(int region, Object barrier, long generation);

  /** Departure from a barrier; {@code outcome} is a set of {@code BarrierOutcome} bits. */
  public abstract void barrierExit(int region, Object barrier, long generation, int outcome);

  // ---- locks
  // -------------------------------------------------------------------------------------

  /** The thread asks for {@code lock} (a monitor's object, a Lock, a Semaphore...). */
  public abstract void lockRequest(int region, Object lock);

  /** The request ended; {@code flags} are {@code LockFlags} bits (e.g. FAILED for a failed try). */
  public abstract void lockAcquired(Object lock, int flags);

  /**
   * The thread acquired {@code lock} at its first attempt, without waiting ({@link
   * WeftBridge#lockFirstTry}): its request and its acquisition, at one time.
   */
  public abstract void lockAcquiredAtOnce(int region, Object lock);

  /** The thread released {@code lock}. */
  public abstract void lockReleased(Object lock);

  // ---- waits
  // -------------------------------------------------------------------------------------

  /** The thread starts a wait of {@code waitKind} ({@code WaitKind} codes). */
  public abstract void waitEnter(int region, int waitKind);

  /** The wait at {@code region} ends. */
  public abstract void waitExit(int region);

  /**
   * The thread notifies waiters of {@code object} ({@code notify}, {@code signal}, {@code unpark}).
   */
  public abstract void notify(int region, Object object, int waitKind);

  /**
   * The thread parks ({@code LockSupport.park*}): a wait of kind {@code park} naming the thread
   * itself, which an unpark of it names too; {@link #waitExit} ends it.
   */
  public abstract void parkEnter(int region);

  /**
   * The thread starts a consumer's take from {@code queue} (a wait of kind {@code queue} that names
   * its queue); {@link #queueTakeExit} ends it.
   */
  public abstract void queueTakeEnter(int region, Object queue);

  /** The take at {@code region} ends. */
  public abstract void queueTakeExit(int region);

  /**
   * The time now when some consumer is in a take from a queue, for {@link #queueHandedOver}; else 0
   * (no one to hand over to).
   */
  public abstract long queueHandOverStart();

  /**
   * The thread put an element into {@code queue} in a call that began at {@code since}, a value of
   * {@link #queueHandOverStart} other than 0.
   */
  public abstract void queueHandedOver(int region, Object queue, long since);

  /** The thread starts spinning ({@code Thread.onSpinWait} loops, busy waits). */
  public abstract void spinEnter(int region);

  /** The spin at {@code region} ends. */
  public abstract void spinExit(int region);

  // ---- threads
  // -----------------------------------------------------------------------------------

  /** The calling thread starts {@code child}. */
  public abstract void threadCreate(int region, Thread child);

  /**
   * The calling thread starts {@code child} as a worker of {@code pool} (a thread pool adding a
   * worker): like {@link #threadCreate}, and the child's thread definition names the pool.
   */
  public abstract void poolThreadCreate(int region, Thread child, Object pool);

  /**
   * The calling thread begins running (first thing in its {@code run}). Recorded for threads whose
   * creation was seen ({@link #threadCreate}, {@link #poolThreadCreate}) and virtual threads.
   */
  public abstract void threadBegin();

  /** The calling thread ends (recorded when its begin was). */
  public abstract void threadEnd();

  /**
   * The calling platform thread terminates (entry of {@code Thread.exit()}, which the JVM calls
   * last on every platform thread): also for threads whose {@code run()} was not hooked (entered
   * before an attach) and for {@code main} after {@code main()} returned. Records nothing.
   */
  public void threadExiting() {}

  /**
   * The calling platform thread starts carrying virtual thread {@code vthread} (JDK 21+: on entry
   * to {@code VirtualThread.mount()}, before the virtual thread becomes the current thread).
   */
  public void vthreadMount(Thread vthread) {}

  /**
   * The calling platform thread stops carrying virtual thread {@code vthread} (on return from
   * {@code VirtualThread.unmount()}, the carrier the current thread again).
   */
  public void vthreadUnmount(Thread vthread) {}

  // ---- failure
  // -----------------------------------------------------------------------------------

  /**
   * Called once when an event method threw: the bridge has already stopped forwarding events. Must
   * not throw.
   */
  public abstract void failed(Throwable problem);

  // ---- waits in frames that were running when the agent attached (additions for attach)
  // ---------
  //
  // Hooks woven into the JDK's own methods (callee side) at attach: a frame that was already
  // running
  // keeps its old code, but calls into these methods afresh. Not abstract: a sink that does not
  // care ignores them. {@code operation} says which method ({@code RunningFrames} constants).

  /** A hooked JDK method is entered on {@code target} (its {@code this}). */
  public void calleeEnter(Object target, int operation) {}

  /** The hooked method returns {@code result} (an int or boolean result, else 0). */
  public void calleeReturn(int result, Object target, int operation) {}

  /** The hooked method ends by throwing {@code thrown}. */
  public void calleeThrow(Throwable thrown, Object target, int operation) {}
}
