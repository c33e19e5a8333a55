package dev.weft.analysis;

/**
 * Time a pool worker spent idle: no task running and no activity of its own recorded. The engine
 * measures how much of it overlapped work in flight in the worker's pool, and how much lay between
 * a parallel region's fork and the worker's first task in that region; and it tells apart the
 * worker's start-up and ending when the JVM says the worker never waited (so it was not waiting for
 * work then).
 */
public final class IdleTime extends ThreadTime {
  long inFlight;
  long timer;
  long afterFork;
  int forkNode;
  long workerStart;
  long workerExit;
  int workerNode = -1;

  IdleTime() {}

  /** The part during which the worker's pool had work in flight (a region open or a task live). */
  public long inFlight() {
    return inFlight;
  }

  /**
   * The part during which the worker's pool had no work in flight but a task scheduled with a delay
   * that had not begun: the worker waited for a timer (disjoint from {@link #inFlight()}).
   */
  public long timer() {
    return timer;
  }

  /**
   * The part between a region's FORK and this worker's first TASK_BEGIN in that region (always
   * within {@link #inFlight()}); 0 when the idle stretch did not end with such a begin.
   */
  public long afterFork() {
    return afterFork;
  }

  /** The call path of the forking region when {@link #afterFork()} > 0, else -1. */
  public int forkNode() {
    return forkNode;
  }

  /**
   * The part from the worker's THREAD_BEGIN to its first task (or other activity of its own), when
   * the JVM counted no park, sleep or wait of the worker in its whole life: it was starting up (or
   * waiting for a core), not waiting for work. Disjoint from the other parts.
   */
  public long workerStart() {
    return workerStart;
  }

  /**
   * The part from the worker's last task (or other activity of its own) to its THREAD_END, under
   * the same condition as {@link #workerStart()}: the worker was on its way out.
   */
  public long workerExit() {
    return workerExit;
  }

  /**
   * The call path of {@link #workerStart()} or {@link #workerExit()} when either is > 0, else -1.
   */
  public int workerNode() {
    return workerNode;
  }
}
