package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.ThreadDef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;

/**
 * One test application run twice in child JVMs, without and with the agent, and the checks every
 * parallelism test makes: same output, nothing printed by the agent, a complete trace, no stream of
 * the agent's own threads.
 */
final class ParallelRun {
  final ChildJvm.Result plain;
  final ChildJvm.Result traced;
  final TraceFacts trace;

  private ParallelRun(ChildJvm.Result plain, ChildJvm.Result traced, TraceFacts trace) {
    this.plain = plain;
    this.traced = traced;
    this.trace = trace;
  }

  /** Runs {@code app} without and with the agent ({@code out=} plus {@code options}). */
  static ParallelRun of(Path jdk, Path tmp, String options, Class<?> app, String... args) {
    return of(jdk, tmp, options, List.of(), app, args);
  }

  /** As {@link #of(Path, Path, String, Class, String...)}, with JVM options for both runs. */
  static ParallelRun of(
      Path jdk, Path tmp, String options, List<String> jvmOptions, Class<?> app, String... args) {
    Path dir = tmp.resolve("trace");
    String cp = ChildJvm.classPath();
    ChildJvm.Result plain =
        ChildJvm.run(
            withJvmOptions(ChildJvm.command(jdk, null, cp, app.getName(), args), jvmOptions), tmp);
    String agentOptions = "out=" + dir + (options.isEmpty() ? "" : "," + options);
    ChildJvm.Result traced =
        ChildJvm.run(
            withJvmOptions(
                ChildJvm.command(jdk, agentOptions, cp, app.getName(), args), jvmOptions),
            tmp);
    assertEquals(0, plain.exitCode(), plain.stderr());
    assertEquals(0, traced.exitCode(), traced.stderr());
    assertEquals("", plain.stderr());
    assertEquals("", traced.stderr(), "the agent prints nothing when out= is given");
    TraceFacts t = TraceFacts.read(dir);
    assertTrue(
        t.definitions.closedCleanly(),
        () ->
            "trace closed cleanly; warnings "
                + t.warnings
                + ", attributes "
                + t.definitions.attributes()
                + ", threads "
                + t.definitions.threads()
                + ", stderr "
                + traced.stderr());
    assertEquals(List.of(), t.warnings);
    for (StreamCursor.State s : t.states.values()) {
      assertEquals(StreamCursor.State.COMPLETE, s, () -> t.problems.toString());
    }
    for (ThreadDef d : t.definitions.threads()) {
      assertFalse(d.name().startsWith("weft-"), "the recorder traced its own thread " + d.name());
    }
    assertFalse(
        t.definitions.attributes().containsKey("agent.weave_errors"),
        () -> "weave errors: " + t.definitions.attributes());
    return new ParallelRun(plain, traced, t);
  }

  private static List<String> withJvmOptions(List<String> command, List<String> jvmOptions) {
    List<String> out = new ArrayList<>(command);
    out.addAll(1, jvmOptions);
    return out;
  }

  /** Asserts the traced run printed exactly what the plain run printed. */
  void assertSameOutput() {
    assertEquals(plain.stdout(), traced.stdout(), "the agent must not change the output");
  }

  /** The number printed after {@code label} (a line {@code label: N}). */
  long printed(String label) {
    for (String line : traced.stdout().split("\\R")) {
      if (line.startsWith(label + ": ")) {
        return Long.parseLong(line.substring(label.length() + 2).trim());
      }
    }
    throw new AssertionError("no line '" + label + ": N' in " + traced.stdout());
  }

  /** Events of {@code kind} on all streams. */
  List<Event> events(EventKind kind) {
    return events(e -> e.kind() == kind);
  }

  List<Event> events(Predicate<Event> p) {
    List<Event> out = new ArrayList<>();
    for (Event e : trace.all()) {
      if (p.test(e)) {
        out.add(e);
      }
    }
    return out;
  }

  /** The region of an event (its REGION field). */
  RegionDef region(Event e) {
    return trace.definitions.region((int) e.get(Field.REGION));
  }

  /** Events of {@code kind} on one stream, in order. */
  List<Event> eventsOn(int stream, EventKind kind) {
    List<Event> out = new ArrayList<>();
    for (Event e : trace.eventsByStream.get(stream)) {
      if (e.kind() == kind) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * The join waits of {@code region} on a stream as [enter, exit] times; fails on an enter without
   * an exit.
   */
  List<long[]> spans(int stream, int region) {
    List<long[]> out = new ArrayList<>();
    long open = -1;
    for (Event e : trace.eventsByStream.get(stream)) {
      if (e.kind() == EventKind.JOIN_WAIT_ENTER && e.get(Field.REGION) == region) {
        assertEquals(-1, open, "nested wait of one region");
        open = e.time();
      } else if (e.kind() == EventKind.JOIN_WAIT_EXIT && e.get(Field.REGION) == region) {
        assertTrue(open >= 0, "exit without enter");
        out.add(new long[] {open, e.time()});
        open = -1;
      }
    }
    assertEquals(-1, open, "wait without exit");
    return out;
  }

  /** The one region whose first line is {@code line}. */
  RegionDef regionAtLine(int line) {
    List<RegionDef> found = new ArrayList<>();
    for (RegionDef r : trace.definitions.regions()) {
      if (r.firstLine() == line) {
        found.add(r);
      }
    }
    assertEquals(1, found.size(), () -> "regions at line " + line + ": " + found);
    return found.get(0);
  }

  /**
   * The innermost task open on {@code event}'s stream when it happened (the parent of what the
   * event creates), or null.
   */
  Long openTaskAt(Event event) {
    Deque<Long> open = new ArrayDeque<>();
    for (Event e : trace.eventsByStream.get(event.stream())) {
      if (e.equals(event)) {
        return open.peek();
      }
      if (e.kind() == EventKind.TASK_BEGIN) {
        open.push(e.get(Field.TASK));
      } else if (e.kind() == EventKind.TASK_END) {
        open.pop();
      }
    }
    throw new AssertionError("event not on its stream: " + event);
  }

  /** The stream of the thread named {@code name}. */
  static int streamNamed(ParallelRun run, String name) {
    for (ThreadDef d : run.trace.definitions.threads()) {
      if (d.name().equals(name)) {
        return d.stream();
      }
    }
    throw new AssertionError("no thread " + name + " in " + run.trace.definitions.threads());
  }

  /** The thread definition of a stream. */
  ThreadDef thread(int stream) {
    return trace.definitions.thread(stream);
  }

  /** The 1-based line of {@code source} (a test source file) containing {@code marker}. */
  static int lineOf(Class<?> app, String marker) {
    Path source =
        Path.of("src/test/java", app.getName().replace('.', '/').replaceAll("\\$.*", "") + ".java");
    try {
      List<String> lines = Files.readAllLines(source);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).contains(marker)) {
          return i + 1;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new AssertionError(marker + " not in " + source);
  }
}
