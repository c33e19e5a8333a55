package dev.weft.agent.record;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.LockFlags;
import dev.weft.trace.WaitKind;
import java.lang.StackWalker.StackFrame;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Waits in frames that were already running when the agent attached. Such a frame keeps the code it
 * had (retransformation replaces a method's code for later calls only), so its call sites are not
 * woven; but each lock, semaphore, barrier, latch, phaser, condition, join, future or fork-join
 * wait, and each phaser arrival, calls into the JDK afresh, where hooks woven at attach (the {@code
 * Running*} families in {@code constructs}) report it here as {@link #enter}, {@link #returned} and
 * {@link #threw} of an operation on the JDK object ({@link RunningOperations} says what each
 * operation is).
 *
 * <p>What is recorded, and under which region:
 *
 * <ul>
 *   <li><b>Only the user's waits.</b> A stack walk finds the frame that called the JDK method; when
 *       that is JDK code (an executor's queue, a barrier's own lock) or the agent, nothing is
 *       recorded, as with call-site weaving. The region is the caller's call site (class, method,
 *       file, line), registered once per call site (the walk's result is cached by the caller's
 *       method and bytecode index).
 *   <li><b>Each wait once.</b> A frame entered after the attach runs woven code whose call-site
 *       hooks record the wait themselves; the recorder's per-thread state says so (an open
 *       LOCK_REQUEST of this lock or semaphore, an open arrival at this barrier, latch or phaser,
 *       an open join wait for this thread or future, a condition whose lock the call site has
 *       already released), and the callee hook then records nothing. An unlock is recorded here
 *       only when the acquisition was, and the call site has not released it; a semaphore's release
 *       when the acquisition was, and the thread's last call-site release was not of this
 *       semaphore. A phaser arrival and a fork-join {@code invoke} from outside a pool, which the
 *       recorder's state cannot tell apart, are recorded when the caller runs no woven code ({@link
 *       CallerCode}).
 * </ul>
 *
 * <p>Per thread, a stack of the regions the entries recorded (0: nothing) pairs every return or
 * throw with its entry; nested hooked calls (a barrier's own lock) keep it balanced.
 */
public final class RunningFrames {
  /** {@code ReentrantLock.lock()}. */
  public static final int LOCK = 1;

  /** {@code ReentrantLock.lockInterruptibly()}. */
  public static final int LOCK_INTERRUPTIBLY = 2;

  /** {@code ReentrantLock.tryLock()}: false is FAILED. */
  public static final int TRY_LOCK = 3;

  /** {@code ReentrantLock.tryLock(long, TimeUnit)}: false is ABORTED. */
  public static final int TRY_LOCK_TIMED = 4;

  /** {@code ReentrantLock.unlock()} (entry only). */
  public static final int UNLOCK = 5;

  /** {@code CyclicBarrier.await} (either). */
  public static final int BARRIER_AWAIT = 6;

  /** {@code Condition.await} and its variants, on an AQS condition. */
  public static final int CONDITION_AWAIT = 7;

  /** {@code Semaphore.acquire} and {@code acquireUninterruptibly} (either). */
  public static final int SEMAPHORE_ACQUIRE = 8;

  /** {@code Semaphore.tryAcquire()} and {@code tryAcquire(int)}: false is FAILED. */
  public static final int SEMAPHORE_TRY = 9;

  /** {@code Semaphore.tryAcquire} with a timeout: false is ABORTED. */
  public static final int SEMAPHORE_TRY_TIMED = 10;

  /**
   * {@code Semaphore.release} (either) and {@code StampedLock}'s unlocks: locks without a holder
   * (entry only).
   */
  public static final int SEMAPHORE_RELEASE = 11;

  /** {@code CountDownLatch.await()}. */
  public static final int LATCH_AWAIT = 12;

  /** {@code CountDownLatch.await(long, TimeUnit)}: false is TIMEOUT. */
  public static final int LATCH_AWAIT_TIMED = 13;

  /** {@code CountDownLatch.countDown()}: LAST when it opened the latch. */
  public static final int LATCH_COUNT_DOWN = 14;

  /** {@code Phaser.arriveAndAwaitAdvance()}. */
  public static final int PHASER_ARRIVE_AND_AWAIT = 15;

  /** {@code Phaser.awaitAdvance} and {@code awaitAdvanceInterruptibly} (each). */
  public static final int PHASER_AWAIT_ADVANCE = 16;

  /** {@code Thread.join} (each). */
  public static final int THREAD_JOIN = 17;

  /** {@code FutureTask.get} (either). */
  public static final int FUTURE_GET = 18;

  /** {@code CompletableFuture.get} (either) and {@code join}. */
  public static final int COMPLETABLE_GET = 19;

  /** {@code StampedLock.readLock} and {@code readLockInterruptibly}. */
  public static final int STAMPED_READ = 20;

  /** {@code StampedLock.writeLock} and {@code writeLockInterruptibly}. */
  public static final int STAMPED_WRITE = 21;

  /** {@code StampedLock.tryReadLock()}: a zero stamp is FAILED. */
  public static final int STAMPED_TRY_READ = 22;

  /** {@code StampedLock.tryWriteLock()}: a zero stamp is FAILED. */
  public static final int STAMPED_TRY_WRITE = 23;

  /** {@code StampedLock.tryReadLock(long, TimeUnit)}: a zero stamp is ABORTED. */
  public static final int STAMPED_TRY_READ_TIMED = 24;

  /** {@code StampedLock.tryWriteLock(long, TimeUnit)}: a zero stamp is ABORTED. */
  public static final int STAMPED_TRY_WRITE_TIMED = 25;

  /** {@code ForkJoinTask.join}, {@code quietlyJoin}, {@code get} (each): a join wait. */
  public static final int FORK_JOIN_JOIN = 26;

  /**
   * {@code ForkJoinTask.invoke} and {@code quietlyInvoke}: from outside any pool a region on the
   * common pool; inside one the task just runs (recorded as a task).
   */
  public static final int FORK_JOIN_INVOKE = 27;

  /** {@code Phaser.arrive} and {@code arriveAndDeregister}: an arrival, written at the return. */
  public static final int PHASER_ARRIVE = 28;

  /**
   * {@code ForkJoinPool.invoke(task)} from outside that pool: a region on the pool (FORK, the
   * caller's join wait, JOIN), as at the call site. Not from one of the pool's own workers: there
   * the call site records a join wait, and this hook records nothing (the tasks the worker runs
   * meanwhile are still recorded by the task hooks).
   */
  public static final int FORK_JOIN_POOL_INVOKE = 29;

  /**
   * {@code Thread.start()} (entry only): THREAD_CREATE for a start in code the agent has not woven,
   * so that the new thread's begin and end are recorded and the critical path follows the start.
   */
  public static final int THREAD_START = 30;

  /**
   * A selector's blocking {@code select} (any of its four forms): WAIT_ENTER/EXIT (select) for a
   * select in code the agent has not woven (an event loop whose frame ran at the attach).
   */
  public static final int SELECT = 31;

  /**
   * {@code ServerSocket.accept()} or a {@code ServerSocketChannel}'s {@code accept()}:
   * WAIT_ENTER/EXIT (accept) for an accept in code the agent has not woven (a listener whose frame
   * ran at the attach).
   */
  public static final int ACCEPT = 32;

  /**
   * {@code ThreadPoolExecutor.beforeExecute(thread, task)}, reported with the task: TASK_BEGIN on a
   * worker whose {@code runWorker} loop ran before the attach (its loop never returns, so it never
   * runs the woven one). Entry only.
   */
  public static final int POOL_TASK_BEGIN = 33;

  /** {@code ThreadPoolExecutor.afterExecute(task, thrown)}, with the task: its TASK_END. */
  public static final int POOL_TASK_END = 34;

  private static final StackWalker WALKER =
      StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();

  /** Region for "not the user's call" in the site cache. */
  private static final Integer NOT_USER = 0;

  private final Recorder recorder;
  private final RegionRegistry regions;
  private final CallerCode callerCode;
  private final Map<Site, Integer> sites = new ConcurrentHashMap<>();
  private final ThreadLocal<Frames> frames = ThreadLocal.withInitial(Frames::new);

  RunningFrames(Recorder recorder, RegionRegistry regions, CallerCode callerCode) {
    this.recorder = recorder;
    this.regions = regions;
    this.callerCode = callerCode;
  }

  /** A hooked method was entered on {@code target}. */
  void enter(Object target, int op) {
    // The wait starts now: the stack walk below takes microseconds (much more when the thread is
    // descheduled during it), which must not be left out of the wait.
    long start = System.nanoTime();
    if (op == POOL_TASK_BEGIN || op == POOL_TASK_END) {
      poolTask(target, op);
      return;
    }
    Frames f = frames.get();
    if (op == UNLOCK) {
      if (f.forget(target) && recorder.holdsLockOf(target)) {
        recorder.releasedByHook(target);
      }
      return;
    }
    if (op == SEMAPHORE_RELEASE) {
      // Permits have no holder: released here when the acquisition was recorded here, unless the
      // call site released it already.
      boolean atCallSite = recorder.releasedAtCallSite(target);
      if (f.forget(target) && !atCallSite) {
        recorder.releasedByHook(target);
      }
      return;
    }
    if (op == THREAD_START) {
      if (target instanceof Thread && recorder.mayRecordHere()) {
        int region = callerRegion(op, target);
        if (region != 0) {
          recorder.threadCreate(region, (Thread) target);
        }
      }
      return;
    }
    int region = 0;
    if (target != null && recorder.mayRecordHere() && !openAtCallSite(target, op)) {
      region = callerRegion(op, target);
    }
    long aux = region == 0 ? 0 : RunningOperations.before(target, op);
    f.push(region, start, aux);
    if (region == 0) {
      return;
    }
    switch (op) {
      case BARRIER_AWAIT:
      case LATCH_AWAIT:
      case LATCH_AWAIT_TIMED:
      case LATCH_COUNT_DOWN:
      case PHASER_ARRIVE_AND_AWAIT:
        recorder.barrierEnterAt(start, region, target, aux);
        break;
      case PHASER_AWAIT_ADVANCE:
      case PHASER_ARRIVE:
        break; // written at the return, when it is known whether it waited, or the phase
      case THREAD_JOIN:
      case FUTURE_GET:
      case COMPLETABLE_GET:
      case FORK_JOIN_JOIN:
        recorder.joinWaitEnterAt(start, region, target);
        break;
      case FORK_JOIN_INVOKE:
      case FORK_JOIN_POOL_INVOKE:
        // As the call site: the region's FORK, then the caller's join wait (without a target).
        ForkJoinPool pool = invokedPool(target, op);
        recorder.forkAt(start, region, pool, pool.getParallelism());
        recorder.joinWaitEnterAt(start, region, null);
        break;
      case CONDITION_AWAIT:
        recorder.releasedByHook(target);
        recorder.waitEnterAt(start, region, WaitKind.CONDITION_AWAIT);
        break;
      case SELECT:
        recorder.waitEnterAt(start, region, WaitKind.SELECT);
        break;
      case ACCEPT:
        recorder.waitEnterAt(start, region, WaitKind.ACCEPT);
        break;
      default:
        recorder.lockRequestAt(start, region, target);
        break;
    }
  }

  /**
   * A task of a pool worker that runs the original loop: begun or ended. Workers that run the woven
   * loop record their tasks there ({@code ExecutorTasks}), and are left alone here.
   */
  private void poolTask(Object task, int op) {
    if (task == null || !recorder.runsOriginalPoolLoop()) {
      return;
    }
    Frames f = frames.get();
    if (op == POOL_TASK_BEGIN) {
      f.poolTask = task;
      recorder.taskBegin(task);
    } else if (f.poolTask == task) {
      // Only the end of a task whose begin was recorded here: a task running while the pool's
      // class was retransformed passed the unhooked beforeExecute and ends in the hooked
      // afterExecute.
      f.poolTask = null;
      recorder.taskEnd(task);
    }
  }

  /** The hooked method entered last on this thread returned {@code result}. */
  void returned(int result, Object target, int op) {
    if (op == UNLOCK || op == SEMAPHORE_RELEASE) {
      return;
    }
    Frames f = frames.get();
    int region = f.pop();
    if (region == 0) {
      return;
    }
    long aux = f.aux();
    switch (op) {
      case BARRIER_AWAIT:
        recorder.barrierExit(region, target, 0, result == 0 ? BarrierOutcome.LAST : 0);
        break;
      case LATCH_AWAIT:
      case LATCH_COUNT_DOWN:
      case PHASER_ARRIVE_AND_AWAIT:
      case LATCH_AWAIT_TIMED:
        recorder.barrierExit(region, target, aux, RunningOperations.outcome(op, result, aux));
        break;
      case PHASER_AWAIT_ADVANCE:
        // The phase it returns is the one it was in when it did not wait (the awaited phase was
        // over already): then there is no wait to record.
        if (result != aux) {
          recorder.barrierEnterAt(f.start(), region, target, aux);
          recorder.barrierExit(region, target, aux, 0);
        }
        break;
      case PHASER_ARRIVE:
        // As the call site: an arrival and departure at once, in the phase the call returned.
        recorder.barrierEnter(region, target, result);
        recorder.barrierExit(region, target, result, 0);
        break;
      case THREAD_JOIN:
      case FUTURE_GET:
      case COMPLETABLE_GET:
      case FORK_JOIN_JOIN:
      case FORK_JOIN_INVOKE:
      case FORK_JOIN_POOL_INVOKE:
        joinEnded(region, target, op);
        break;
      case CONDITION_AWAIT:
        reacquire(region, target);
        break;
      case SELECT:
      case ACCEPT:
        recorder.waitExit(region);
        break;
      case TRY_LOCK:
      case TRY_LOCK_TIMED:
      case SEMAPHORE_TRY:
      case SEMAPHORE_TRY_TIMED:
      case STAMPED_TRY_READ:
      case STAMPED_TRY_WRITE:
      case STAMPED_TRY_READ_TIMED:
      case STAMPED_TRY_WRITE_TIMED:
        if (result != 0) {
          acquired(f, target, op);
        } else {
          recorder.lockAcquired(target, RunningOperations.failedFlags(op));
        }
        break;
      default:
        acquired(f, target, op);
        break;
    }
  }

  /** The hooked method entered last on this thread threw {@code thrown}. */
  void threw(Throwable thrown, Object target, int op) {
    if (op == UNLOCK || op == SEMAPHORE_RELEASE) {
      return;
    }
    Frames f = frames.get();
    int region = f.pop();
    if (region == 0) {
      return;
    }
    long aux = f.aux();
    switch (op) {
      case PHASER_AWAIT_ADVANCE:
        recorder.barrierEnterAt(f.start(), region, target, aux);
        recorder.barrierExit(region, target, aux, outcomeOf(thrown));
        break;
      case BARRIER_AWAIT:
      case LATCH_AWAIT:
      case LATCH_AWAIT_TIMED:
      case LATCH_COUNT_DOWN:
      case PHASER_ARRIVE_AND_AWAIT:
        recorder.barrierExit(region, target, aux, outcomeOf(thrown));
        break;
      case PHASER_ARRIVE:
        break; // the call site records no arrival that threw either
      case THREAD_JOIN:
      case FUTURE_GET:
      case COMPLETABLE_GET:
      case FORK_JOIN_JOIN:
      case FORK_JOIN_INVOKE:
      case FORK_JOIN_POOL_INVOKE:
        joinEnded(region, target, op);
        break;
      case CONDITION_AWAIT:
        reacquire(region, target);
        break;
      case SELECT:
      case ACCEPT:
        recorder.waitExit(region);
        break;
      default:
        recorder.lockAcquired(target, LockFlags.ABORTED | RunningOperations.sharedFlag(op));
        break;
    }
  }

  private void acquired(Frames f, Object lock, int op) {
    recorder.lockAcquired(lock, RunningOperations.sharedFlag(op));
    f.remember(lock);
  }

  /** A join wait ended; an {@code invoke}'s region too (JOIN), as at call sites. */
  private void joinEnded(int region, Object target, int op) {
    recorder.joinWaitExit(region);
    if (op == FORK_JOIN_INVOKE || op == FORK_JOIN_POOL_INVOKE) {
      recorder.join(region, invokedPool(target, op));
    }
  }

  /** The pool an invoke's region runs on: the common pool for {@code task.invoke()}. */
  private static ForkJoinPool invokedPool(Object target, int op) {
    return op == FORK_JOIN_POOL_INVOKE ? (ForkJoinPool) target : ForkJoinPool.commonPool();
  }

  /** A condition's wait ended: WAIT_EXIT, and the lock taken back (as the call-site hooks do). */
  private void reacquire(int region, Object condition) {
    recorder.waitExit(region);
    recorder.lockRequest(region, condition);
    recorder.lockAcquired(condition, LockFlags.AFTER_WAIT);
  }

  private static int outcomeOf(Throwable t) {
    if (t instanceof InterruptedException) {
      return BarrierOutcome.INTERRUPTED;
    }
    if (t instanceof TimeoutException) {
      return BarrierOutcome.TIMEOUT;
    }
    return BarrierOutcome.BROKEN; // BrokenBarrierException, or anything that ended the wait
  }

  /** Whether woven call-site hooks already record this wait (see the class comment). */
  private boolean openAtCallSite(Object target, int op) {
    switch (op) {
      case BARRIER_AWAIT:
      case LATCH_AWAIT:
      case LATCH_AWAIT_TIMED:
      case LATCH_COUNT_DOWN:
      case PHASER_ARRIVE_AND_AWAIT:
      case PHASER_AWAIT_ADVANCE:
        return recorder.barrierOpenAtCallSite(target);
      case THREAD_JOIN:
      case FUTURE_GET:
      case COMPLETABLE_GET:
      case FORK_JOIN_JOIN:
        return recorder.joinOpenAtCallSite(target);
      case FORK_JOIN_INVOKE:
        // Inside a pool the task just runs (a task of its own, recorded by the task hooks).
        // Outside, whether the call site records it is the caller's code's to say (callerRegion).
        return ForkJoinTask.inForkJoinPool();
      case FORK_JOIN_POOL_INVOKE:
        return ForkJoinTask.getPool() == target; // from one of its own workers: not recorded
      case PHASER_ARRIVE:
      case SELECT:
      case ACCEPT:
        return false; // the caller's code says (callerRegion)
      case CONDITION_AWAIT:
        // The call site released the condition's lock before the call; unheld, it is theirs.
        return !recorder.holdsLockOf(target);
      default:
        return recorder.requestOpenAtCallSite(target);
    }
  }

  /**
   * The region of the user's call of the hooked method: the frame below the hooked method's, when
   * it is not JDK or agent code; 0 otherwise.
   */
  private int callerRegion(int op, Object target) {
    ThreadGuard guard = recorder.guard();
    boolean wasBusy = guard.busy;
    guard.busy = true;
    try {
      Class<?> hooked = RunningOperations.hookedClass(op, target);
      // The hooked method's frame (the first of its class below the agent's), then its caller's.
      List<StackFrame> two =
          WALKER.walk(
              s ->
                  s.dropWhile(fr -> !hooked.isAssignableFrom(fr.getDeclaringClass()))
                      .limit(2)
                      .collect(Collectors.toList()));
      if (two.size() < 2) {
        return 0;
      }
      StackFrame caller = two.get(1);
      if ((op == PHASER_ARRIVE
              || op == SELECT
              || op == ACCEPT
              || op == FORK_JOIN_INVOKE
              || op == FORK_JOIN_POOL_INVOKE
              || op == THREAD_START)
          && callerCode.runsWovenCode(caller)) {
        return 0; // its call site records it
      }
      Site site =
          new Site(
              caller.getDeclaringClass(),
              caller.getMethodName(),
              caller.getDescriptor(),
              caller.getByteCodeIndex(),
              op);
      Integer region = sites.get(site);
      if (region == null) {
        region = register(caller, RunningOperations.regionName(op, target, two.get(0)), op, target);
        sites.put(site, region);
      }
      return region;
    } catch (RuntimeException | LinkageError e) {
      return 0; // no site, no event
    } finally {
      guard.busy = wasBusy; // a field write: cannot run out of stack
    }
  }

  private Integer register(StackFrame caller, String name, int op, Object target) {
    Class<?> c = caller.getDeclaringClass();
    ClassLoader loader = c.getClassLoader();
    if (loader == null || loader == PLATFORM || c.getName().startsWith("dev.weft.agent.")) {
      return NOT_USER;
    }
    String file = caller.getFileName();
    int line = caller.getLineNumber();
    if (line < 0) {
      // A frame running its method's code from before the retransformation (the usual case here).
      OriginalLines original = OriginalLines.of(c);
      file = original.sourceFile();
      line =
          original.line(caller.getMethodName(), caller.getDescriptor(), caller.getByteCodeIndex());
    }
    return regions.register(
        RunningOperations.kind(op, target),
        name,
        c.getName(),
        caller.getMethodName(),
        file == null ? "" : file,
        Math.max(0, line),
        Math.max(0, line));
  }

  /** A caller's call site of one operation. */
  private static final class Site {
    private final Class<?> declaring;
    private final String method;
    private final String descriptor;
    private final int bci;
    private final int op;

    Site(Class<?> declaring, String method, String descriptor, int bci, int op) {
      this.declaring = declaring;
      this.method = method;
      this.descriptor = descriptor;
      this.bci = bci;
      this.op = op;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Site)) {
        return false;
      }
      Site s = (Site) o;
      return declaring == s.declaring
          && bci == s.bci
          && op == s.op
          && method.equals(s.method)
          && descriptor.equals(s.descriptor);
    }

    @Override
    public int hashCode() {
      return Objects.hash(declaring, method, descriptor, bci, op);
    }
  }

  /** One thread's open hooked calls and the locks whose acquisition was recorded here. */
  private static final class Frames {
    private int[] open = new int[8];
    private long[] starts = new long[8];
    private long[] auxes = new long[8];
    private int depth;
    private Object[] held = new Object[4];
    private int heldCount;

    /** The pool task whose TASK_BEGIN the beforeExecute hook recorded, until its TASK_END. */
    private Object poolTask;

    /** An entry: its region (0: nothing recorded), start, and what the operation kept. */
    void push(int region, long start, long aux) {
      if (depth == open.length) {
        open = Arrays.copyOf(open, depth * 2);
        starts = Arrays.copyOf(starts, depth * 2);
        auxes = Arrays.copyOf(auxes, depth * 2);
      }
      starts[depth] = start;
      auxes[depth] = aux;
      open[depth++] = region;
    }

    /** The region of the innermost entry, which is closed; its start and aux remain readable. */
    int pop() {
      return depth == 0 ? 0 : open[--depth];
    }

    long start() {
      return starts[depth];
    }

    long aux() {
      return auxes[depth];
    }

    void remember(Object lock) {
      if (heldCount == held.length) {
        if (heldCount >= 256) {
          return;
        }
        held = Arrays.copyOf(held, heldCount * 2);
      }
      held[heldCount++] = lock;
    }

    /** Forgets the innermost remembered hold of {@code lock}; false when there is none. */
    boolean forget(Object lock) {
      for (int i = heldCount - 1; i >= 0; i--) {
        if (held[i] == lock) {
          heldCount--;
          System.arraycopy(held, i + 1, held, i, heldCount - i);
          held[heldCount] = null;
          return true;
        }
      }
      return false;
    }
  }
}
