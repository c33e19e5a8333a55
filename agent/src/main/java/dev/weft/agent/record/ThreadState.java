package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;
import java.util.Arrays;

/**
 * What the recorder keeps per thread: its stream (opened at its first event), the re-entrancy
 * guard, and the stack of open user regions. Touched only by its own thread (a carrier's also by
 * the virtual thread it carries, never at the same time), so nothing here is synchronized.
 */
final class ThreadState {
  /** Deepest user-region nesting remembered; deeper regions are still balanced by a counter. */
  private static final int MAX_DEPTH = 4096;

  final Thread thread;

  /** Never records (agent threads): the state exists only to say so cheaply. */
  final boolean ignored;

  /** A virtual thread: it has no stream; its events go to its carrier's, between mount records. */
  final boolean virtual;

  /** True while the recorder writes into {@link #stream}: whatever it calls is not traced. */
  boolean busy;

  /** The state whose guard the current event holds: this one, or its carrier's. */
  ThreadState writing = this;

  StreamWriter stream;

  /** Of a carrier: the Java id of the virtual thread whose events follow in the stream, or 0. */
  long mounted;

  /** The thread name last recorded, compared by reference to notice renames cheaply. */
  String name;

  private int[] regions = new int[16];
  private int depth;
  private int overflow;

  ThreadState(Thread thread, boolean ignored, boolean virtual) {
    this.thread = thread;
    this.ignored = ignored;
    this.virtual = virtual;
  }

  /** Remembers an entered user region (0 when its enter was not recorded). */
  void pushRegion(int region) {
    if (depth == regions.length) {
      if (depth >= MAX_DEPTH) {
        overflow++;
        return;
      }
      regions = Arrays.copyOf(regions, depth * 2);
    }
    regions[depth++] = region;
  }

  /** The innermost user region, removed; 0 when none (or its enter was not recorded). */
  int popRegion() {
    if (overflow > 0) {
      overflow--;
      return 0;
    }
    return depth == 0 ? 0 : regions[--depth];
  }
}
