package dev.weft.check;

import java.util.Locale;

/** Percentages as users write them: {@code 10%} or {@code 10} both mean ten percent. */
public final class Percent {
  private Percent() {}

  /**
   * Parses {@code 10%}, {@code 2.5%} or {@code 10} to percent units (10.0, 2.5, 10.0).
   *
   * @throws IllegalArgumentException with a message for the user
   */
  public static double parse(String text) {
    String s = text.strip();
    if (s.endsWith("%")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    try {
      double v = Double.parseDouble(s);
      if (Double.isNaN(v) || Double.isInfinite(v) || v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a percentage (e.g. 10% or 2.5%)");
    }
  }

  /** {@code 12.50 %}. */
  public static String format(double percent) {
    return String.format(Locale.ROOT, "%.2f %%", percent);
  }
}
