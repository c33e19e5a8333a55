package dev.weft.agent.it;

import dev.weft.trace.Definitions;
import dev.weft.trace.Event;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A whole (small) trace read into memory for assertions. */
public final class TraceFacts {
  public final Definitions definitions;
  public final Map<Integer, List<Event>> eventsByStream = new LinkedHashMap<>();
  public final Map<Integer, StreamCursor.State> states = new LinkedHashMap<>();

  /** How each stream that did not end cleanly ended (one line naming the file and byte). */
  public final Map<Integer, String> problems = new LinkedHashMap<>();

  public final List<String> warnings;

  /**
   * Each file's events by stream; a platform thread hosted on an ended thread's file (FORMAT.md,
   * "Hosted platform threads") gets its own list, without the mount and unmount that frame it.
   */
  private TraceFacts(Trace trace) {
    this.definitions = trace.definitions();
    for (int id : trace.streamIds()) {
      List<Event> events = eventsByStream.computeIfAbsent(id, k -> new ArrayList<>());
      StreamCursor c = trace.stream(id);
      int hosted = 0;
      while (c.next()) {
        EventKind k = c.kind();
        if (k == EventKind.VTHREAD_MOUNT && definitions.hostedStream(c.field(0)) != 0) {
          hosted = definitions.hostedStream(c.field(0));
        } else if (k == EventKind.VTHREAD_UNMOUNT && hosted != 0) {
          hosted = 0;
        } else if (hosted != 0) {
          Event e = c.snapshot();
          eventsByStream
              .computeIfAbsent(hosted, s -> new ArrayList<>())
              .add(new Event(e.kind(), e.time(), hosted, e.fields()));
        } else {
          events.add(c.snapshot());
        }
      }
      states.put(id, c.state());
      if (c.problem() != null) {
        problems.put(id, c.problem());
      }
    }
    this.warnings = List.copyOf(trace.warnings());
  }

  public static TraceFacts read(Path dir) {
    try (Trace t = Trace.open(dir)) {
      return new TraceFacts(t);
    }
  }

  /** All events of all streams (stream order, then time order). */
  public List<Event> all() {
    List<Event> out = new ArrayList<>();
    eventsByStream.values().forEach(out::addAll);
    return out;
  }

  /**
   * The events of the thread named {@code name}, in its own and its supplement streams, by time.
   */
  public List<Event> ofThread(String name) {
    List<Event> out = new ArrayList<>();
    for (ThreadDef d : definitions.streamDefinitions()) {
      if (d.name().equals(name) && eventsByStream.containsKey(d.stream())) {
        out.addAll(eventsByStream.get(d.stream()));
      }
    }
    out.sort((a, b) -> Long.compare(a.time(), b.time()));
    return out;
  }

  /** The regions with this name. */
  public List<RegionDef> regionsNamed(String name) {
    List<RegionDef> out = new ArrayList<>();
    for (RegionDef r : definitions.regions()) {
      if (r.name().equals(name)) {
        out.add(r);
      }
    }
    return out;
  }

  /** The one region with this name. */
  public RegionDef region(String name) {
    List<RegionDef> r = regionsNamed(name);
    if (r.size() != 1) {
      throw new AssertionError("expected one region named " + name + ", found " + r);
    }
    return r.get(0);
  }

  /** How many events of {@code kind} carry region {@code region}. */
  public long count(EventKind kind, int region) {
    return all().stream().filter(e -> e.kind() == kind && e.get(Field.REGION) == region).count();
  }

  /** How many events of {@code kind} there are, leaving out the {@linkplain #printing printing}. */
  public long count(EventKind kind) {
    return all().stream().filter(e -> e.kind() == kind && !printing(e)).count();
  }

  /** All events but the {@linkplain #printing printing}. */
  public List<Event> allButPrinting() {
    return all().stream().filter(e -> !printing(e)).toList();
  }

  /**
   * Whether {@code e} is a lock event on a {@code PrintStream}'s monitor: the agent records the
   * JDK's PrintStream blocks, so each line a test application prints is a few events of its own
   * (how many depends on the JDK), which counts of the application's events leave out.
   */
  public boolean printing(Event e) {
    EventKind k = e.kind();
    if (k != EventKind.LOCK_REQUEST
        && k != EventKind.LOCK_ACQUIRED
        && k != EventKind.LOCK_RELEASED) {
      return false;
    }
    ObjectDef o = definitions.object(e.get(Field.OBJECT));
    return o != null && o.className().equals("java.io.PrintStream");
  }

  /** Region names of a stream's ENTER/EXIT events, e.g. "+outer", "-outer". */
  public List<String> enterExitNames(int stream) {
    List<String> out = new ArrayList<>();
    for (Event e : eventsByStream.get(stream)) {
      if (e.kind() == EventKind.ENTER || e.kind() == EventKind.EXIT) {
        RegionDef r = definitions.region((int) e.field(0));
        out.add((e.kind() == EventKind.ENTER ? "+" : "-") + (r == null ? "?" : r.name()));
      }
    }
    return out;
  }

  /** Reads all remaining events of a cursor, for counting. */
  public static long countAll(EventCursor c) {
    long n = 0;
    while (c.next()) {
      n++;
    }
    return n;
  }
}
