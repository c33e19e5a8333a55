package dev.weft.agent.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The agent's settings, immutable. Read by {@link #parse} from three sources, in this order of
 * precedence: the agent argument string ({@code
 * -javaagent:weft-agent.jar=out=DIR,constructs=-locks}), {@code -Dweft.*} system properties, {@code
 * WEFT_*} environment variables. The option reference is agent/OPTIONS.md.
 */
public final class AgentOptions {
  /** Largest window a thread maps at once, unless {@code buffer=} says otherwise. */
  public static final long DEFAULT_BUFFER = 4L * 1024 * 1024;

  private static final List<String> KEYS =
      List.of(
          "out",
          "include",
          "exclude",
          "constructs",
          "buffer",
          "maxsize",
          "start",
          "tasks",
          "duration",
          "attach.skip_running",
          "weaver.jit",
          "test.fail",
          "test.diskfree");
  private static final Set<String> LIST_KEYS = Set.of("include", "exclude", "constructs");

  private final Path out;
  private final ClassFilter filter;
  private final Set<Family> families;
  private final long buffer;
  private final long maxSize;
  private final boolean startOn;
  private final boolean aggregateTasks;
  private final long durationMillis;
  private final boolean skipRunning;
  private final boolean weaverC1Only;
  private final long failAfter;
  private final long simulatedDiskFree;
  private final String description;

  private AgentOptions(
      Path out,
      ClassFilter filter,
      Set<Family> families,
      long buffer,
      long maxSize,
      boolean startOn,
      boolean aggregateTasks,
      long durationMillis,
      boolean skipRunning,
      boolean weaverC1Only,
      long failAfter,
      long simulatedDiskFree,
      String description) {
    this.out = out;
    this.filter = filter;
    this.families = Collections.unmodifiableSet(EnumSet.copyOf(families));
    this.buffer = buffer;
    this.maxSize = maxSize;
    this.startOn = startOn;
    this.aggregateTasks = aggregateTasks;
    this.durationMillis = durationMillis;
    this.skipRunning = skipRunning;
    this.weaverC1Only = weaverC1Only;
    this.failAfter = failAfter;
    this.simulatedDiskFree = simulatedDiskFree;
    this.description = description;
  }

  /** All defaults: every family, every class, default directory. */
  public static AgentOptions defaults() {
    return new AgentOptions(
        null,
        ClassFilter.ALL,
        EnumSet.allOf(Family.class),
        DEFAULT_BUFFER,
        0,
        true,
        false,
        0,
        false,
        true,
        0,
        -1,
        "");
  }

  /**
   * Reads the options.
   *
   * @param agentArgs the {@code -javaagent:jar=ARGS} string (may be null or empty)
   * @param properties system properties ({@code weft.out}, ...)
   * @param env environment ({@code WEFT_OUT}, ...)
   * @throws OptionException for an unknown option or a bad value (one line, for the user)
   */
  public static AgentOptions parse(
      String agentArgs, Map<String, String> properties, Map<String, String> env)
      throws OptionException {
    Map<String, String> values = new LinkedHashMap<>();
    for (String key : KEYS) {
      String envName = "WEFT_" + key.replace('.', '_').toUpperCase(Locale.ROOT);
      if (env.get(envName) != null) {
        values.put(key, env.get(envName));
      }
      if (properties.get("weft." + key) != null) {
        values.put(key, properties.get("weft." + key));
      }
    }
    values.putAll(splitArgs(agentArgs));

    Path out = null;
    String outText = values.get("out");
    if (outText != null) {
      if (outText.isBlank()) {
        throw new OptionException("out=: needs a directory");
      }
      try {
        out = Path.of(outText);
      } catch (RuntimeException e) {
        throw new OptionException("out=" + outText + ": not a valid path");
      }
    }
    ClassFilter filter = ClassFilter.of(list(values.get("include")), list(values.get("exclude")));
    Set<Family> families = families(values.get("constructs"));
    long buffer = size("buffer", values.get("buffer"), DEFAULT_BUFFER);
    if (buffer < 4096 || buffer > (1L << 30) || Long.bitCount(buffer) != 1) {
      throw new OptionException(
          "buffer=" + values.get("buffer") + ": must be a power of two from 4k to 1g");
    }
    long maxSize = size("maxsize", values.get("maxsize"), 0);
    boolean startOn = flag("start", values.get("start"), "on", "off", true);
    boolean aggregateTasks = !flag("tasks", values.get("tasks"), "all", "aggregate", true);
    long durationMillis = duration(values.get("duration"));
    boolean skipRunning =
        flag("attach.skip_running", values.get("attach.skip_running"), "true", "false", false);
    boolean weaverC1Only = flag("weaver.jit", values.get("weaver.jit"), "c1", "any", true);
    long failAfter = 0;
    if (values.get("test.fail") != null) {
      failAfter = number("test.fail", values.get("test.fail"));
    }
    long simulatedDiskFree = size("test.diskfree", values.get("test.diskfree"), -1);
    StringBuilder description = new StringBuilder();
    for (Map.Entry<String, String> e : values.entrySet()) {
      description.append(description.length() == 0 ? "" : ",");
      description.append(e.getKey()).append('=').append(e.getValue());
    }
    return new AgentOptions(
        out,
        filter,
        families,
        buffer,
        maxSize,
        startOn,
        aggregateTasks,
        durationMillis,
        skipRunning,
        weaverC1Only,
        failAfter,
        simulatedDiskFree,
        description.toString());
  }

  /**
   * Splits {@code key=value,key=value}. A comma-separated item without {@code =} continues the list
   * of the option before it, so {@code constructs=-locks,-barriers} and {@code
   * include=com.a.*,com.b.*} read naturally.
   */
  private static Map<String, String> splitArgs(String args) throws OptionException {
    Map<String, String> out = new LinkedHashMap<>();
    if (args == null || args.isBlank()) {
      return out;
    }
    String current = null;
    for (String item : args.split(",", -1)) {
      int eq = item.indexOf('=');
      if (eq < 0) {
        if (current == null || !LIST_KEYS.contains(current)) {
          throw new OptionException(
              "unknown option '" + item + "' (options: " + String.join(", ", KEYS) + ")");
        }
        if (!item.isEmpty()) {
          out.merge(current, item, (a, b) -> a.isEmpty() ? b : a + "," + b);
        }
        continue;
      }
      String key = item.substring(0, eq).trim();
      if (!KEYS.contains(key)) {
        throw new OptionException(
            "unknown option '" + key + "' (options: " + String.join(", ", KEYS) + ")");
      }
      if (out.containsKey(key)) {
        throw new OptionException("option '" + key + "' given twice");
      }
      out.put(key, item.substring(eq + 1));
      current = key;
    }
    return out;
  }

  /** A two-valued option: true for {@code yes}, false for {@code no}, {@code dflt} when absent. */
  private static boolean flag(String key, String value, String yes, String no, boolean dflt)
      throws OptionException {
    if (value == null) {
      return dflt;
    }
    if (value.equals(yes) || value.equals(no)) {
      return value.equals(yes);
    }
    throw new OptionException(key + "=" + value + ": must be " + yes + " or " + no);
  }

  private static List<String> list(String value) {
    List<String> out = new ArrayList<>();
    if (value != null) {
      for (String s : value.split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
    }
    return out;
  }

  /**
   * {@code constructs=}: a plain list ({@code regions,forkjoin}) selects exactly those families; a
   * list of {@code -name}/{@code +name} changes the default (all); {@code all} and {@code none}
   * work as starting points ({@code none,+locks}).
   */
  private static Set<Family> families(String value) throws OptionException {
    EnumSet<Family> set = EnumSet.allOf(Family.class);
    if (value == null) {
      return set;
    }
    List<String> items = list(value);
    if (items.isEmpty()) {
      throw new OptionException("constructs=: needs a list of families (" + familyNames() + ")");
    }
    boolean first = true;
    for (String item : items) {
      char sign = item.charAt(0);
      String name = sign == '-' || sign == '+' ? item.substring(1) : item;
      if (name.equals("all") || name.equals("none")) {
        if (sign == '-' || !first) {
          throw new OptionException("constructs=" + value + ": '" + item + "' may only come first");
        }
        set = name.equals("all") ? EnumSet.allOf(Family.class) : EnumSet.noneOf(Family.class);
        first = false;
        continue;
      }
      Family f = Family.ofId(name);
      if (f == null) {
        throw new OptionException(
            "constructs="
                + value
                + ": unknown family '"
                + name
                + "' (families: "
                + familyNames()
                + ")");
      }
      if (first && sign != '-' && sign != '+') {
        set = EnumSet.noneOf(Family.class);
      }
      if (sign == '-') {
        set.remove(f);
      } else {
        set.add(f);
      }
      first = false;
    }
    return set;
  }

  private static String familyNames() {
    StringBuilder b = new StringBuilder();
    for (Family f : Family.values()) {
      b.append(b.length() == 0 ? "" : ", ").append(f.id());
    }
    return b.toString();
  }

  /** A byte size: digits with an optional k, m or g suffix (binary units). */
  private static long size(String key, String value, long dflt) throws OptionException {
    if (value == null) {
      return dflt;
    }
    String v = value.trim().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (v.endsWith("k") || v.endsWith("m") || v.endsWith("g")) {
      unit = v.endsWith("k") ? 1L << 10 : v.endsWith("m") ? 1L << 20 : 1L << 30;
      v = v.substring(0, v.length() - 1);
    }
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new OptionException(key + "=" + value + ": not a size (e.g. 512k, 64m, 2g)");
    }
    if (n < 0 || n > Long.MAX_VALUE / unit) {
      throw new OptionException(key + "=" + value + ": not a size (e.g. 512k, 64m, 2g)");
    }
    return n * unit;
  }

  /** A duration: digits with a unit {@code ms}, {@code s}, {@code m} or {@code h}; 0 is none. */
  private static long duration(String value) throws OptionException {
    if (value == null) {
      return 0;
    }
    String v = value.trim().toLowerCase(Locale.ROOT);
    long unit;
    if (v.endsWith("ms")) {
      unit = 1;
      v = v.substring(0, v.length() - 2);
    } else if (v.endsWith("s") || v.endsWith("m") || v.endsWith("h")) {
      unit = v.endsWith("s") ? 1000 : v.endsWith("m") ? 60_000 : 3_600_000;
      v = v.substring(0, v.length() - 1);
    } else {
      unit = v.equals("0") ? 1 : -1;
    }
    try {
      long n = Long.parseLong(v);
      if (unit > 0 && n >= 0 && n <= Long.MAX_VALUE / unit) {
        return n * unit;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new OptionException(
        "duration=" + value + ": not a duration (e.g. 500ms, 30s, 5m, 1h; 0 for none)");
  }

  private static long number(String key, String value) throws OptionException {
    try {
      long n = Long.parseLong(value.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new OptionException(key + "=" + value + ": must be a positive number");
  }

  /** The trace directory from {@code out=}, or null for the default directory. */
  public Path out() {
    return out;
  }

  /** Which application classes may be instrumented. */
  public ClassFilter filter() {
    return filter;
  }

  /** The enabled construct families. */
  public Set<Family> families() {
    return families;
  }

  public boolean enabled(Family f) {
    return families.contains(f);
  }

  /** Largest memory-mapped window per thread, in bytes. */
  public long buffer() {
    return buffer;
  }

  /** Limit on the event files' total size in bytes; 0 = none. */
  public long maxSize() {
    return maxSize;
  }

  /** Whether recording is on from the start ({@code start=on}) or waits for {@code Weft.on()}. */
  public boolean startOn() {
    return startOn;
  }

  /**
   * Whether fork-join tasks are aggregated ({@code tasks=aggregate}): per-thread TASK_SUMMARY
   * records instead of TASK_CREATE/BEGIN/END per task.
   */
  public boolean aggregateTasks() {
    return aggregateTasks;
  }

  /**
   * How long to record before detaching by itself ({@code duration=}), in milliseconds; 0 = until
   * the JVM exits or {@code WeftAgent.detach()}.
   */
  public long durationMillis() {
    return durationMillis;
  }

  /**
   * Whether an attached agent leaves alone the application classes with a method running at the
   * attach ({@code attach.skip_running=true}): not retransformed, so that loops that never return
   * keep their compiled code (agent/ATTACH.md, "Costs"). Their waits are still recorded through the
   * hooks in the JDK's methods.
   */
  public boolean skipRunning() {
    return skipRunning;
  }

  /**
   * Whether the weaving code is to be compiled by C1 only ({@code weaver.jit=c1}, the default), or
   * by whichever compiler the JVM picks ({@code weaver.jit=any}).
   */
  public boolean weaverC1Only() {
    return weaverC1Only;
  }

  /** For tests of the failure path: the recorder throws at this event (0 = never). */
  public long failAfter() {
    return failAfter;
  }

  /**
   * For tests of a full disk ({@code test.diskfree=}): the trace behaves as if its disk had this
   * many bytes free once it is created; -1 = the real disk.
   */
  public long simulatedDiskFree() {
    return simulatedDiskFree;
  }

  /** The effective options as {@code key=value,...}, for the trace's process definition. */
  public String description() {
    return description;
  }
}
