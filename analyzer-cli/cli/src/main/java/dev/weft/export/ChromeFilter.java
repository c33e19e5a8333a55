package dev.weft.export;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a timeline export writes: a time window relative to the run's start (the first event), the
 * threads (stream ids or names, {@code *} matching any characters), and the kinds of slices.
 *
 * @param fromNanos start of the window, nanoseconds after the first event
 * @param toNanos end of the window, or {@link Long#MAX_VALUE} for the end of the trace
 * @param threads thread patterns; empty for every thread
 * @param kinds the kinds written
 */
public record ChromeFilter(long fromNanos, long toNanos, List<String> threads, Set<Kind> kinds) {

  /** Kinds of timeline items, as {@code --kinds} names them. */
  public enum Kind {
    REGION("region"),
    PARALLEL("parallel"),
    TASK("task"),
    LOCK("lock"),
    HOLD("hold"),
    BARRIER("barrier"),
    JOIN("join"),
    WAIT("wait"),
    SPIN("spin"),
    HELP("help"),
    INSTANT("instant"),
    FLOW("flow"),
    HANDOFF("handoff");

    private final String id;

    Kind(String id) {
      this.id = id;
    }

    public String id() {
      return id;
    }
  }

  public ChromeFilter {
    threads = List.copyOf(threads);
    kinds = kinds.isEmpty() ? EnumSet.noneOf(Kind.class) : EnumSet.copyOf(kinds);
  }

  /**
   * The kinds written unless told otherwise: all but lock handoff arrows, which cost as much as the
   * lock's slices themselves.
   */
  public static Set<Kind> defaultKinds() {
    return EnumSet.complementOf(EnumSet.of(Kind.HANDOFF));
  }

  /** The default kinds, every thread, the whole trace. */
  public static ChromeFilter defaults() {
    return new ChromeFilter(0, Long.MAX_VALUE, List.of(), defaultKinds());
  }

  /** Kinds from {@code region,task,...}; "all" for every kind. */
  public static Set<Kind> parseKinds(String list) {
    Set<Kind> kinds = EnumSet.noneOf(Kind.class);
    for (String part : list.split(",")) {
      String id = part.strip().toLowerCase(Locale.ROOT);
      if (id.equals("all")) {
        kinds.addAll(EnumSet.allOf(Kind.class));
        continue;
      }
      Kind found = null;
      for (Kind k : Kind.values()) {
        if (k.id.equals(id)) {
          found = k;
        }
      }
      if (found == null) {
        throw new IllegalArgumentException(
            "unknown kind '"
                + part.strip()
                + "'; kinds: "
                + EnumSet.allOf(Kind.class).stream().map(Kind::id).collect(Collectors.joining(","))
                + ",all");
      }
      kinds.add(found);
    }
    return kinds;
  }

  public boolean shows(Kind kind) {
    return kinds.contains(kind);
  }

  /** True when the thread (stream id, name) is one the patterns name, or there are none. */
  public boolean showsThread(int stream, String name) {
    if (threads.isEmpty()) {
      return true;
    }
    for (String p : threads) {
      if (p.equals(Integer.toString(stream)) || glob(p).matcher(name).matches()) {
        return true;
      }
    }
    return false;
  }

  /** Thread patterns from a comma-separated list. */
  public static List<String> parseThreads(String list) {
    List<String> out = new ArrayList<>();
    for (String part : list.split(",")) {
      if (!part.isBlank()) {
        out.add(part.strip());
      }
    }
    return out;
  }

  private static Pattern glob(String p) {
    return Pattern.compile(
        Arrays.stream(p.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*")));
  }
}
