package dev.weft.analysis.properties;

import dev.weft.trace.WaitKind;
import java.util.Map;
import java.util.TreeMap;

/**
 * The time a wait property claimed, per wait kind, as its causes ({@code <kind>_ns}, named by
 * {@link WaitKind#name}): the kinds the property always lists (at 0 too, so that JSON readers
 * always find them), and any other kind it met.
 */
final class WaitKindTimes {
  /** Kinds counted in an array; a kind beyond (a newer recorder's) goes to a map by name. */
  private static final int INDEXED = 16;

  private final int[] listed;
  private final long[] byKind = new long[INDEXED];
  private final Map<String, Long> other = new TreeMap<>();

  /**
   * @param listed the kinds listed even at 0
   */
  WaitKindTimes(int... listed) {
    this.listed = listed.clone();
  }

  void add(int kind, long ns) {
    if (kind >= 0 && kind < INDEXED) {
      byKind[kind] += ns;
    } else {
      other.merge(WaitKind.name(kind) + "_ns", ns, Long::sum);
    }
  }

  Map<String, Long> causes() {
    Map<String, Long> m = new TreeMap<>(other);
    for (int k : listed) {
      m.put(WaitKind.name(k) + "_ns", byKind[k]);
    }
    for (int k = 0; k < INDEXED; k++) {
      if (byKind[k] != 0) {
        m.put(WaitKind.name(k) + "_ns", byKind[k]);
      }
    }
    return m;
  }
}
