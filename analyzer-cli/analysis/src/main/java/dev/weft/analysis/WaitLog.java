package dev.weft.analysis;

import java.util.Arrays;
import java.util.List;

/**
 * Hands the waits of a replay to an {@link Analyzer.WaitSink}: while the properties handle one
 * wait, it records what the severity cube is given, and then tells the sink each part a wait
 * property (under {@code time}, execution excluded) or a task-time property counted.
 */
final class WaitLog {
  private final Analyzer.WaitSink sink;
  private final CountedWait wait;
  private final List<Property> properties;
  private final boolean[] counted;
  private boolean recording;
  private int parts;
  private int[] property = new int[8];
  private int[] node = new int[8];
  private long[] ns = new long[8];

  WaitLog(Analyzer.WaitSink sink, Replay replay, List<Property> properties) {
    this.sink = sink;
    this.wait = new CountedWait(replay);
    this.properties = properties;
    this.counted = new boolean[properties.size()];
    Property time = null;
    for (Property p : properties) {
      if (p.id().equals("time")) {
        time = p;
      }
    }
    for (Property p : properties) {
      boolean waitInTime =
          time != null && p != time && Results.underOrIs(p, time) && !p.id().equals("execution");
      counted[p.index()] = waitInTime || !p.threadTime();
    }
  }

  /** Starts recording what the properties count for one wait. */
  void begin() {
    recording = true;
    parts = 0;
  }

  /** Called by the cube for every addition. */
  void added(int p, int atNode, long amount) {
    if (!recording || !counted[p]) {
      return;
    }
    for (int i = 0; i < parts; i++) {
      if (property[i] == p && node[i] == atNode) {
        ns[i] += amount;
        return;
      }
    }
    if (parts == property.length) {
      property = Arrays.copyOf(property, parts * 2);
      node = Arrays.copyOf(node, parts * 2);
      ns = Arrays.copyOf(ns, parts * 2);
    }
    property[parts] = p;
    node[parts] = atNode;
    ns[parts] = amount;
    parts++;
  }

  /** Stops recording and tells the sink the parts of the wait of {@code thread}. */
  void end(
      String kind, String construct, int thread, long start, long end, long object, int blocker) {
    recording = false;
    CountedWait w = wait;
    w.kind = kind;
    w.construct = construct;
    w.thread = thread;
    w.start = start;
    w.end = end;
    w.object = object;
    w.blocker = blocker;
    for (int i = 0; i < parts; i++) {
      w.property = properties.get(property[i]).id();
      w.node = node[i];
      w.ns = ns[i];
      sink.wait(w);
    }
  }
}
