package dev.weft.analysis;

import dev.weft.trace.Definitions;
import dev.weft.trace.PoolDef;
import dev.weft.trace.ThreadDef;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The names pools are shown by. The agent can only call a pool the program did not name by its
 * class and identity ({@code org.apache.pekko.dispatch.PekkoJdk9ForkJoinPool@66c92293}), which says
 * neither which pool it is nor matches from one run to the next; its workers' names do ({@code
 * bench-pekko.actor.default-dispatcher-3}). Such a pool is shown by its class's simple name and the
 * pattern its workers' names share: {@code PekkoJdk9ForkJoinPool
 * (bench-pekko.actor.default-dispatcher-*)}. The identity stays only where two pools would
 * otherwise read the same. Named pools ({@code ForkJoinPool.commonPool}, the virtual-thread
 * scheduler) keep their names. One naming for the analysis and the report.
 */
public final class PoolNames {
  /** The agent's name for a pool it knows nothing else about: class name, '@', identity. */
  private static final Pattern IDENTITY = Pattern.compile("([\\w.$]+)@([0-9a-f]+)");

  /** A common prefix shorter than this says nothing about the threads. */
  private static final int MIN_PREFIX = 3;

  private PoolNames() {}

  /** Shown names by pool id, for every pool the definitions hold. */
  public static Map<Integer, String> of(Definitions defs) {
    Map<Integer, StringBuilder> prefixes = new HashMap<>();
    Map<Integer, Integer> workers = new HashMap<>();
    for (ThreadDef t : defs.threads()) {
      if (t.pool() == 0 || (t.flags() & ThreadDef.SUPPLEMENT) != 0) {
        continue;
      }
      String name = t.name();
      StringBuilder p = prefixes.get(t.pool());
      if (p == null) {
        prefixes.put(t.pool(), new StringBuilder(name));
      } else {
        p.setLength(commonPrefix(p, name));
      }
      workers.merge(t.pool(), 1, Integer::sum);
    }
    Map<Integer, String> shown = new HashMap<>();
    Map<String, Integer> uses = new HashMap<>();
    for (PoolDef p : defs.pools()) {
      String s = shortName(p, prefixes.get(p.id()), workers.getOrDefault(p.id(), 0));
      shown.put(p.id(), s);
      uses.merge(s, 1, Integer::sum);
    }
    for (PoolDef p : defs.pools()) {
      String s = shown.get(p.id());
      if (uses.get(s) > 1 && !s.equals(p.name())) {
        shown.put(p.id(), identified(p, s));
      }
    }
    return shown;
  }

  private static String shortName(PoolDef p, StringBuilder prefix, int workers) {
    var m = IDENTITY.matcher(p.name());
    if (!m.matches()) {
      return p.name();
    }
    String cls = m.group(1);
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    if (prefix == null || prefix.length() < MIN_PREFIX) {
      return p.name();
    }
    String pattern = prefix.toString();
    if (workers > 1) {
      // The workers' numbers differ after it: -1, -10, -11 share "-1", which reads as worker 1.
      int end = pattern.length();
      while (end > 0 && Character.isDigit(pattern.charAt(end - 1))) {
        end--;
      }
      pattern = pattern.substring(0, end) + "*";
    }
    return simple + " (" + pattern + ")";
  }

  /** {@code shown} with the pool's identity after its class name. */
  private static String identified(PoolDef p, String shown) {
    var m = IDENTITY.matcher(p.name());
    if (!m.matches()) {
      return shown;
    }
    int paren = shown.indexOf(" (");
    return paren < 0
        ? p.name()
        : shown.substring(0, paren) + "@" + m.group(2) + shown.substring(paren);
  }

  private static int commonPrefix(CharSequence a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }
}
