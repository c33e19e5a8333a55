package dev.weft.cli;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Percentages on the command line: {@code 10%} or {@code 10} both mean ten percent. */
final class Percent {
  private Percent() {}

  /**
   * Parses {@code 10%}, {@code 2.5%} or {@code 10} to percent units (10.0, 2.5, 10.0).
   *
   * @throws IllegalArgumentException with a message for the user
   */
  static double parse(String text) {
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

  /** {@code 12.5 %}. */
  static String format(double percent) {
    return String.format(Locale.ROOT, "%.2f %%", percent);
  }

  /** picocli converter: the option's value in percent units. */
  static final class Converter implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
