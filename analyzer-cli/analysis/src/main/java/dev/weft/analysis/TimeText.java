package dev.weft.analysis;

import java.util.Locale;

/** Durations written for people, the same way in every analysis text and report. */
public final class TimeText {
  private TimeText() {}

  /** A duration for humans: ns, us, ms or s. */
  public static String duration(long ns) {
    long a = Math.abs(ns);
    if (a < 1_000) {
      return ns + " ns";
    }
    if (a < 1_000_000) {
      return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
    }
    if (a < 1_000_000_000) {
      return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
    }
    return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
  }
}
