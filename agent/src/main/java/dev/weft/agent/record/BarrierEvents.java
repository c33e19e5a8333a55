package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;
import java.util.concurrent.CyclicBarrier;

/**
 * Barrier events: BARRIER_ENTER and BARRIER_EXIT at cyclic barriers, latches and phasers. Woven
 * code passes a phaser's phase as the generation; a {@link CyclicBarrier}'s generation is counted
 * here ({@link BarrierObjects#generation}) at the arrival and kept for the departure.
 */
final class BarrierEvents {
  private final EventPath path;
  private final ObjectDefinitions objects;

  BarrierEvents(EventPath path, ObjectDefinitions objects) {
    this.path = path;
    this.objects = objects;
  }

  void barrierEnter(int region, Object barrier, long generation) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        // The arrival is when the program called the barrier: what the recorder does next (the
        // barrier's first-sight definition may wait for the definitions file) is part of the wait,
        // not of the work before it. Nothing below writes to this thread's stream.
        arrive(s, w, System.nanoTime(), region, barrier, generation);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /** Writes BARRIER_ENTER at {@code arrival}; a CyclicBarrier's generation is read here. */
  private void arrive(
      ThreadState s, StreamWriter w, long arrival, int region, Object barrier, long generation) {
    if (barrier instanceof CyclicBarrier) {
      // Woven code cannot see the generation: count it here, and keep it for the departure.
      generation = BarrierObjects.generation((CyclicBarrier) barrier);
      s.barrierGeneration = generation;
    }
    s.barrierObject = barrier;
    w.barrierEnter(arrival, region, objects.objectId(region, barrier), generation);
  }

  void barrierExit(int region, Object barrier, long generation, int outcome) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        if (barrier instanceof CyclicBarrier && barrier == s.barrierObject) {
          generation = s.barrierGeneration;
        }
        s.barrierObject = null;
        long id = objects.objectId(region, barrier);
        w.barrierExit(System.nanoTime(), region, id, generation, outcome);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  // ---- for waits in frames running since before the attach (RunningFrames)

  /** Whether this thread's latest arrival at a barrier, not yet departed, is at {@code barrier}. */
  boolean openAtCallSite(Object barrier) {
    return path.state().barrierObject == barrier;
  }

  /** {@link #barrierEnter} at time {@code t}. */
  void barrierEnterAt(long t, int region, Object barrier, long generation) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        arrive(s, w, t, region, barrier, generation);
      } finally {
        s.writing.busy = false;
      }
    }
  }
}
