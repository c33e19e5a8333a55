package dev.weft.analysis;

import static dev.weft.analysis.CallPathTree.ROOT;
import static dev.weft.analysis.ThreadState.F_HELP;
import static dev.weft.analysis.ThreadState.F_REGION;

/**
 * The replay of regions (ENTER..EXIT) and of helping (HELP_ENTER..EXIT): frames whose time is
 * execution at their call path. Their ends need nothing beyond the frame's pop, which the driver
 * does; they emit no occurrence of their own.
 */
final class RegionReplay {
  private final Replay r;
  private final ThreadReplay frames;

  RegionReplay(Replay replay) {
    this.r = replay;
    this.frames = replay.frames;
  }

  void enter(ThreadState th, long t, int region) {
    int top = th.depth - 1;
    if (top < 0) {
      // may end a worker's idle stretch
      frames.push(th, F_REGION, r.tree.child(ROOT, region), region, t, region, -1);
      return;
    }
    // Inside a frame (the common case): the new frame inherits its instance and region stat.
    th.push(
        F_REGION,
        r.tree.child(th.node[top], region),
        region,
        th.inst[top],
        th.stat[top],
        t,
        region);
  }

  void helpEnter(ThreadState th, long t, int region) {
    frames.push(th, F_HELP, r.tree.child(th.currentNode(), region), region, t, region, -1);
  }
}
