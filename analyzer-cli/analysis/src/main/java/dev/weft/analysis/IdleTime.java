package dev.weft.analysis;

/**
 * Time a pool worker spent idle: no task running and no activity of its own recorded. The engine
 * measures how much of it overlapped work in flight in the worker's pool, and how much lay between
 * a parallel region's fork and the worker's first task in that region.
 */
public final class IdleTime extends ThreadTime {
  long inFlight;
  long timer;
  long afterFork;
  int forkNode;

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
}
