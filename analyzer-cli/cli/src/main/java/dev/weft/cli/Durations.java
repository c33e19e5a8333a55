package dev.weft.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations in nanoseconds: printed for people, parsed from {@code 1.5ms}, {@code 200us}, {@code
 * 42}.
 */
final class Durations {
  private Durations() {}

  /**
   * A duration with a unit chosen to keep 3-4 significant digits: {@code 812 ns}, {@code 1.25 ms}.
   */
  static String format(long nanos) {
    long abs = Math.abs(nanos);
    if (abs < 1_000) {
      return nanos + " ns";
    }
    if (abs < 1_000_000) {
      return scaled(nanos, 1e3, "µs");
    }
    if (abs < 1_000_000_000) {
      return scaled(nanos, 1e6, "ms");
    }
    return scaled(nanos, 1e9, "s");
  }

  private static String scaled(long nanos, double unit, String name) {
    double v = nanos / unit;
    double a = Math.abs(v);
    String digits = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, digits, v) + " " + name;
  }

  /**
   * Parses {@code 1.5ms}, {@code 200us} (or {@code µs}), {@code 3s}, {@code 2m} (or {@code min}),
   * {@code 1h}, {@code 500ns}; a bare number is nanoseconds.
   *
   * @throws IllegalArgumentException with a message for the user when it is not a duration
   */
  static long parse(String text) {
    String s = text.strip().toLowerCase(Locale.ROOT);
    double unit;
    String number;
    if (s.endsWith("ns")) {
      unit = 1;
      number = s.substring(0, s.length() - 2);
    } else if (s.endsWith("us") || s.endsWith("µs")) {
      unit = 1e3;
      number = s.substring(0, s.length() - 2);
    } else if (s.endsWith("ms")) {
      unit = 1e6;
      number = s.substring(0, s.length() - 2);
    } else if (s.endsWith("s")) {
      unit = 1e9;
      number = s.substring(0, s.length() - 1);
    } else if (s.endsWith("min") || s.endsWith("m")) {
      unit = 60e9;
      number = s.substring(0, s.length() - (s.endsWith("min") ? 3 : 1));
    } else if (s.endsWith("h")) {
      unit = 3600e9;
      number = s.substring(0, s.length() - 1);
    } else {
      unit = 1;
      number = s;
    }
    try {
      double v = Double.parseDouble(number.strip()) * unit;
      if (Double.isNaN(v) || Double.isInfinite(v) || v < 0 || v >= Long.MAX_VALUE) {
        throw new NumberFormatException();
      }
      return Math.round(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration (e.g. 1500000, 1.5ms, 200us, 2s, 2m, 1h)");
    }
  }

  /** picocli converter for duration options. */
  static final class Converter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
