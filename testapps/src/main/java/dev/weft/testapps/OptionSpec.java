package dev.weft.testapps;

import java.util.ArrayList;
import java.util.List;

/**
 * One declared option of a scenario: {@code --name value}. Immutable.
 *
 * <p>Three types exist: a bounded integer, a choice among fixed words, and a comma-separated list
 * of bounded integers. Every option has a default, so a scenario runs with no options at all.
 */
public final class OptionSpec {
  /** What values an option takes. */
  public enum Type {
    INTEGER,
    CHOICE,
    INTEGER_LIST
  }

  private final String name;
  private final Type type;
  private final String defaultValue;
  private final long min;
  private final long max;
  private final List<String> choices;
  private final String description;

  private OptionSpec(
      String name,
      Type type,
      String defaultValue,
      long min,
      long max,
      List<String> choices,
      String description) {
    this.name = name;
    this.type = type;
    this.defaultValue = defaultValue;
    this.min = min;
    this.max = max;
    this.choices = List.copyOf(choices);
    this.description = description;
  }

  /** An integer option in {@code [min, max]}. */
  public static OptionSpec integer(
      String name, long defaultValue, long min, long max, String description) {
    return new OptionSpec(
        name, Type.INTEGER, Long.toString(defaultValue), min, max, List.of(), description);
  }

  /** A choice among {@code choices}; the default must be one of them. */
  public static OptionSpec choice(
      String name, String defaultValue, List<String> choices, String description) {
    if (!choices.contains(defaultValue)) {
      throw new IllegalArgumentException(defaultValue + " is not one of " + choices);
    }
    return new OptionSpec(name, Type.CHOICE, defaultValue, 0, 0, choices, description);
  }

  /** A non-empty comma-separated list of integers, each in {@code [min, max]}. */
  public static OptionSpec integerList(
      String name, String defaultValue, long min, long max, String description) {
    return new OptionSpec(name, Type.INTEGER_LIST, defaultValue, min, max, List.of(), description);
  }

  /** The option's name without the leading dashes. */
  public String name() {
    return name;
  }

  /** What values the option takes. */
  public Type type() {
    return type;
  }

  /** The default value as it would be typed on the command line. */
  public String defaultValue() {
    return defaultValue;
  }

  /** One-line description for {@code --help}. */
  public String description() {
    return description;
  }

  /**
   * Parses a value of this option.
   *
   * @return a {@link Long}, a {@link String} (choice) or a {@code List<Long>}
   * @throws UsageException naming the option and what is wrong with the value
   */
  public Object parse(String text) throws UsageException {
    switch (type) {
      case INTEGER:
        return parseInteger(text);
      case CHOICE:
        if (!choices.contains(text)) {
          throw new UsageException(
              "option --" + name + ": '" + text + "' is not one of " + String.join(", ", choices));
        }
        return text;
      case INTEGER_LIST:
        List<Long> values = new ArrayList<>();
        for (String part : text.split(",", -1)) {
          values.add(parseInteger(part.trim()));
        }
        return List.copyOf(values);
      default:
        throw new AssertionError(type);
    }
  }

  private long parseInteger(String text) throws UsageException {
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new UsageException("option --" + name + ": '" + text + "' is not an integer");
    }
    if (value < min || value > max) {
      throw new UsageException(
          "option --" + name + ": " + value + " is outside " + min + ".." + max);
    }
    return value;
  }

  /** The {@code --help} line of this option. */
  public String helpLine() {
    String values;
    switch (type) {
      case INTEGER:
        values = "<" + min + ".." + max + ">";
        break;
      case CHOICE:
        values = String.join("|", choices);
        break;
      default:
        values = "<n,n,...>";
        break;
    }
    return String.format(
        "  --%-14s %-22s %s (default %s)", name, values, description, defaultValue);
  }
}
