package dev.weft.agent.weave;

/** Calls to {@link #target} in every position the call-site hooks must handle. */
public class CallSample {
  private final int base;

  public CallSample(int x) {
    super();
    this.base = target(x); // after super(): hooked
  }

  public static int target(int x) {
    if (x < 0) {
      throw new IllegalArgumentException("negative " + x);
    }
    return x + 1;
  }

  /** Wide locals live across the call; the call's result feeds an expression. */
  public long wide(long a, double b, int x) {
    long c = a * 2;
    double d = b / 2;
    return c + (long) d + target(x) * 10L + base;
  }

  /** The user's own handler around the call must still see the exception. */
  public int caught(int x) {
    try {
      return target(x);
    } catch (IllegalArgumentException e) {
      return -100;
    }
  }

  /** Two calls in one expression, the second one throwing. */
  public static int twice(int x, int y) {
    return target(x) + target(y);
  }
}
