package dev.weft.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Percentages on the command line: {@code 10%} or {@code 10} both mean ten percent. */
final class Percent {
  private Percent() {}

  /** picocli converter: the option's value in percent units. */
  static final class Converter implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      try {
        return dev.weft.check.Percent.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
