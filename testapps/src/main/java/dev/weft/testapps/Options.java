package dev.weft.testapps;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parsed options of one run: every declared option with its value (given or default), plus the
 * common {@code --cpu} switch and {@code --spin-per-ms} rate. Immutable.
 */
public final class Options {
  /** The switch that turns sleep-based work into spinning work. */
  public static final String CPU = "cpu";

  /** Iterations of the spin loop per nominal millisecond of work under {@code --cpu}. */
  public static final OptionSpec SPIN_PER_MS =
      OptionSpec.integer(
          "spin-per-ms",
          Work.DEFAULT_SPIN_PER_MS,
          1,
          1_000_000_000L,
          "spin-loop iterations per nominal ms of work with --cpu");

  private final Map<String, Object> values;
  private final boolean cpu;

  private Options(Map<String, Object> values, boolean cpu) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.cpu = cpu;
  }

  /**
   * Parses {@code args} (everything after the scenario's name) against the scenario's options.
   *
   * @throws UsageException on an unknown option, a missing or bad value, or a stray argument
   */
  public static Options parse(List<OptionSpec> specs, List<String> args) throws UsageException {
    Map<String, OptionSpec> byName = new LinkedHashMap<>();
    for (OptionSpec spec : specs) {
      byName.put(spec.name(), spec);
    }
    byName.put(SPIN_PER_MS.name(), SPIN_PER_MS);
    Map<String, Object> values = new LinkedHashMap<>();
    for (OptionSpec spec : byName.values()) {
      values.put(spec.name(), spec.parse(spec.defaultValue()));
    }
    boolean cpu = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--") || arg.length() == 2) {
        throw new UsageException("unexpected argument '" + arg + "'");
      }
      String name = arg.substring(2);
      String inlineValue = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        inlineValue = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (name.equals(CPU) && inlineValue == null) {
        cpu = true;
        continue;
      }
      OptionSpec spec = byName.get(name);
      if (spec == null) {
        throw new UsageException("unknown option --" + name);
      }
      String text = inlineValue;
      if (text == null) {
        if (i + 1 >= args.size()) {
          throw new UsageException("option --" + name + " needs a value");
        }
        text = args.get(++i);
      }
      values.put(name, spec.parse(text));
    }
    return new Options(values, cpu);
  }

  /** The value of an integer option, which must fit an int. */
  public int intValue(String name) {
    return Math.toIntExact(longValue(name));
  }

  /** The value of an integer option. */
  public long longValue(String name) {
    return (Long) require(name);
  }

  /** The value of a choice option. */
  public String choice(String name) {
    return (String) require(name);
  }

  /** The value of an integer-list option. */
  @SuppressWarnings("unchecked")
  public List<Long> longList(String name) {
    return (List<Long>) require(name);
  }

  /** True when {@code --cpu} was given: work spins instead of sleeping. */
  public boolean cpu() {
    return cpu;
  }

  /** All values in declaration order plus {@code cpu}: the "params" of the truth line. */
  public Map<String, Object> asParams() {
    Map<String, Object> params = new LinkedHashMap<>(values);
    params.put(CPU, cpu);
    return params;
  }

  private Object require(String name) {
    Object value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException("no option --" + name);
    }
    return value;
  }
}
