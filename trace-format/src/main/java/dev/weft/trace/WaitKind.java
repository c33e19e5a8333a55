package dev.weft.trace;

/** The kind carried by WAIT_ENTER and NOTIFY events. Codes are a public contract. */
public final class WaitKind {
  public static final int OBJECT_WAIT = 1;
  public static final int CONDITION_AWAIT = 2;
  public static final int SLEEP = 3;
  public static final int PARK = 4;
  public static final int YIELD = 5;

  /**
   * An acquire of a synchronizer built on {@code AbstractQueuedSynchronizer} (or its long variant)
   * by the program or a library: what it waits for is the subclass's own rule (a latch of its own,
   * a lock, a gate), so the wait is known but not its waker.
   */
  public static final int SYNCHRONIZER = 6;

  /**
   * A blocking queue's {@code take}, {@code put}, their timed forms ({@code poll}, {@code offer}
   * with a timeout), their deque forms and {@code transfer}: waiting for an element, for room, or
   * for a taker. The other side's calls are not events, so the waker is not known.
   */
  public static final int QUEUE = 7;

  private WaitKind() {}

  /** The lower_snake_case name of a wait kind code. */
  public static String name(long kind) {
    switch ((int) kind) {
      case OBJECT_WAIT:
        return "object_wait";
      case CONDITION_AWAIT:
        return "condition_await";
      case SLEEP:
        return "sleep";
      case PARK:
        return "park";
      case YIELD:
        return "yield";
      case SYNCHRONIZER:
        return "synchronizer";
      case QUEUE:
        return "queue";
      default:
        return "wait_" + kind;
    }
  }
}
