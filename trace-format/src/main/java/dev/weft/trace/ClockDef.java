package dev.weft.trace;

/**
 * The trace clock: event times are {@code System.nanoTime()} values; {@code epochNanos} is the
 * wall-clock time (ns since 1970) that corresponds to {@code nanoBase}.
 */
public record ClockDef(long nanoBase, long epochNanos, long resolutionNanos) {

  /** Wall-clock nanoseconds since the epoch for a trace time. */
  public long toEpochNanos(long traceTime) {
    return epochNanos + (traceTime - nanoBase);
  }
}
