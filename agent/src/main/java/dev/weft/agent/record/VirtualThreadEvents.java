package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;

/**
 * Mounts and unmounts of virtual threads (JDK 21+), recorded on the carrier as they happen: the
 * carrier's view (which virtual thread it ran, from when to when) and the frame of each stretch of
 * a virtual thread's own events, which readers gather into the virtual thread's logical stream.
 * Both run on the carrier as a platform thread (before the mount makes the virtual thread current,
 * after the unmount made the carrier current again), under the carrier's guard.
 */
final class VirtualThreadEvents {
  private final EventPath path;

  VirtualThreadEvents(EventPath path) {
    this.path = path;
  }

  void mount(Thread vthread) {
    ThreadState c = path.state();
    if (c.virtual || vthread == null) {
      return;
    }
    // begin() closes a mount left open (an unmount that could not be recorded).
    StreamWriter w = path.begin(c);
    if (w == null) {
      return;
    }
    try {
      long id = vthread.getId();
      w.vthreadMount(System.nanoTime(), id);
      c.mounted = id;
    } finally {
      c.writing.busy = false;
    }
  }

  void unmount(Thread vthread) {
    ThreadState c = path.state();
    if (c.virtual || vthread == null || c.mounted != vthread.getId()) {
      return; // its mount was not recorded here
    }
    // begin() writes the unmount: the carrier records for itself again.
    StreamWriter w = path.begin(c);
    if (w != null) {
      c.writing.busy = false;
    }
  }
}
