package dev.weft.check;

/**
 * The outcome of a check for one property.
 *
 * @param kind why it failed: {@code budget}, {@code regression} or {@code status}; null when it did
 *     not
 * @param regressed whether it failed (also) for a regression against the baseline
 * @param current its share of time in the current run (the median over several), in percent
 * @param baseline the same for the baseline, NaN without one
 * @param reason one line for the user, starting with the id
 * @param worst where it waits most (for a failure), or null
 */
public record Verdict(
    String id,
    String name,
    Outcome outcome,
    String kind,
    boolean regressed,
    double current,
    double baseline,
    String reason,
    CallPath worst) {

  /** Passed, failed, or no rule applied. */
  public enum Outcome {
    PASS,
    FAIL,
    NOT_CHECKED
  }

  public boolean failed() {
    return outcome == Outcome.FAIL;
  }

  /** This verdict with the call path it points at. */
  public Verdict withWorst(CallPath path) {
    return new Verdict(id, name, outcome, kind, regressed, current, baseline, reason, path);
  }

  /**
   * The reason followed by where: {@code barrier_wait: 7.20 % of time is over its budget of 5.00 %
   * (worst call path: main > phase @ Solver.java:40 > CyclicBarrier.await @ Worker.java:57, at
   * Worker.java:57)}.
   */
  public String message() {
    if (worst == null || worst.frames().isEmpty()) {
      return reason;
    }
    String at = worst.location().isEmpty() ? "" : ", at " + worst.location();
    return reason + " (worst call path: " + worst.text() + at + ")";
  }
}
