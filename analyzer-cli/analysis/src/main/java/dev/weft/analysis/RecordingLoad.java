package dev.weft.analysis;

import dev.weft.trace.Definitions;
import dev.weft.trace.RegionDef;
import java.util.Arrays;
import java.util.Locale;

/**
 * Whether the recording itself may have changed what the trace shows. Every event costs the thread
 * that writes it some time, so a program that enters a construct millions of times a second (a
 * short {@code synchronized} method on every value it reads) runs slower under the agent, its
 * critical sections last longer, and its threads collide more often than unrecorded. That is said
 * in a note, naming the call path that was entered most and how to leave it out; a program with
 * coarser constructs gets no note.
 */
final class RecordingLoad {
  /**
   * The least time a thread spends per event it records, in ns: a monitor pair, three events, adds
   * 108–121 ns of the thread's CPU on the 2-core host of BENCHMARKS.md, a ReentrantLock pair 82–90.
   */
  static final long NS_PER_EVENT = 30;

  /** A thread whose events would take this share of its lifetime makes a note. */
  static final double NOTE_SHARE = 0.05;

  /** Threads with fewer events, or shorter lives, are not judged: too little to say. */
  static final long MIN_EVENTS = 100_000;

  static final long MIN_LIFETIME_NS = 10_000_000;

  /** Constructs opened, by call-path node. */
  private long[] opens = new long[256];

  /** A construct (region, lock request, wait, task…) opened at call path {@code node}. */
  void opened(int node) {
    if (node < 0) {
      return;
    }
    if (node >= opens.length) {
      opens = Arrays.copyOf(opens, Math.max(node + 1, opens.length * 2));
    }
    opens[node]++;
  }

  /** The note for this replay, or null when no thread recorded enough to matter. */
  String note(Definitions defs, Replay replay) {
    ThreadState densest = null;
    double share = 0;
    for (ThreadState th : replay.threads) {
      long life = th.end - th.begin;
      if (!th.started || th.events < MIN_EVENTS || life < MIN_LIFETIME_NS) {
        continue;
      }
      double s = (double) th.events * NS_PER_EVENT / life;
      if (s > share) {
        share = s;
        densest = th;
      }
    }
    if (densest == null || share < NOTE_SHARE) {
      return null;
    }
    StringBuilder n = new StringBuilder();
    n.append(
        String.format(
            Locale.ROOT,
            "the recording may have slowed the program: %s wrote %,d events in %s; at %d ns or"
                + " more of its own time each, at least %.0f %% of its time went into the"
                + " recording. Short critical sections then last longer, and locks may be more"
                + " contended than unrecorded",
            densest.name,
            densest.events,
            TimeText.duration(densest.end - densest.begin),
            NS_PER_EVENT,
            Math.min(100, share * 100)));
    int top = mostOpened();
    if (top > 0) {
      n.append(
          String.format(
              Locale.ROOT,
              ". The call path entered most: %s (%,d times)",
              replay.tree.label(defs, top),
              opens[top]));
      RegionDef region = regionOf(defs, replay.tree, top);
      if (region != null && !region.declaringClass().isEmpty()) {
        n.append(": leave its class out with exclude=").append(region.declaringClass());
      }
    }
    return n.toString();
  }

  /** The node with the most constructs opened (not the root), or -1. */
  private int mostOpened() {
    int top = -1;
    for (int node = 1; node < opens.length; node++) {
      if (opens[node] > 0 && (top < 0 || opens[node] > opens[top])) {
        top = node;
      }
    }
    return top;
  }

  private static RegionDef regionOf(Definitions defs, CallPathTree tree, int node) {
    int region = tree.realRegion(node);
    return region == Integer.MIN_VALUE ? null : defs.region(region);
  }
}
