package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;

/**
 * Region events (ENTER, EXIT) of woven constructs, {@code @Traced} methods and {@code
 * Weft.region(...)}, and measurement control (MEASUREMENT_ON, MEASUREMENT_OFF).
 *
 * <p>A user region is closed without naming it ({@code Region.close()}), so each thread keeps a
 * stack of the user regions it entered. An entry whose enter was not recorded says why, so that its
 * exit is counted the same way.
 */
final class RegionEvents {
  /** User-region stack entry of a virtual thread's region: its exit is counted as skipped too. */
  private static final int SKIPPED_VIRTUAL = -1;

  /** User-region stack entry of a thread without a stream: its exit is counted as dropped too. */
  private static final int SKIPPED_LOST = -2;

  /** User-region stack entry of a region that could not be defined: its exit is dropped too. */
  private static final int SKIPPED_UNDEFINED = -3;

  private final EventPath path;
  private final RegionRegistry regions;

  RegionEvents(EventPath path, RegionRegistry regions) {
    this.path = path;
    this.regions = regions;
  }

  void enter(int region) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.enter(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void exit(int region) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.exit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void userRegionEnter(int region) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w == null) {
      s.pushRegion(notRecorded(s));
      return;
    }
    try {
      w.enter(System.nanoTime(), region);
      s.pushRegion(region);
    } finally {
      s.writing.busy = false;
    }
  }

  void userRegionEnter(String name, int site) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w == null) {
      s.pushRegion(notRecorded(s));
      return;
    }
    try {
      int region = regions.regionAt(site, name == null ? "null" : name);
      if (region == 0) {
        // Its definition could not be written: an event naming it would refer to nothing.
        path.countUndefined();
        s.pushRegion(SKIPPED_UNDEFINED);
        return;
      }
      w.enter(System.nanoTime(), region);
      s.pushRegion(region);
    } finally {
      s.writing.busy = false;
    }
  }

  void userRegionExit() {
    ThreadState s = path.state();
    if (s.busy) {
      return;
    }
    int region = s.popRegion();
    if (region <= 0) {
      if (region == SKIPPED_VIRTUAL) {
        path.countVirtualSkipped();
      } else if (region == SKIPPED_UNDEFINED && path.on()) {
        path.countUndefined();
      } else if (region == SKIPPED_LOST && path.on() && !s.ignored) {
        path.countLost(s);
      }
      return;
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.exit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /** What a user region's stack entry says when its enter was not recorded. */
  private int notRecorded(ThreadState s) {
    boolean on = path.on();
    if (s.virtual) {
      return on ? SKIPPED_VIRTUAL : 0;
    }
    // A thread without a stream had its enter counted as dropped (unless re-entrant or off).
    return on && !s.busy && !s.ignored && (s.lost != null || s.noStream) ? SKIPPED_LOST : 0;
  }

  void measurementOn() {
    if (path.on()) {
      return;
    }
    path.setOn(true);
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.measurementOn(System.nanoTime());
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void measurementOff() {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.measurementOff(System.nanoTime());
      } finally {
        s.writing.busy = false;
      }
    }
    path.jvmCounts.disable(); // the JVM goes on counting while the trace does not
    path.setOn(false);
  }
}
