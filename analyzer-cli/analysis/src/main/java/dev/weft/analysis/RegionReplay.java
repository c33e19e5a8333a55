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
        delegates(th, top, region) ? th.node[top] : r.tree.child(th.node[top], region),
        region,
        th.inst[top],
        th.stat[top],
        t,
        region);
  }

  /**
   * Whether a submission at {@code region} entered directly inside the submission of frame {@code
   * top} is that submission handed on: an executor that wraps another (Pekko's dispatcher, a
   * context-propagating or instrumenting wrapper, a delegating {@code ExecutorService}) calls the
   * wrapped one's {@code execute} or {@code submit} inside its own. It is one submission, so it
   * keeps the outer call's call path (the one nearest the user's code, which also names the task it
   * creates), not one frame per layer of wrapping.
   */
  private boolean delegates(ThreadState th, int top, int region) {
    return th.kind[top] == F_REGION && submission(th.region[top]) && submission(region);
  }

  private boolean submission(int region) {
    return TaskNames.isSubmission(r.defs().region(region));
  }

  void helpEnter(ThreadState th, long t, int region) {
    frames.push(th, F_HELP, r.tree.child(th.currentNode(), region), region, t, region, -1);
  }
}
