package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ObjectDef;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/** Running the synchronisation test apps and reading their traces. */
final class SyncTraces {
  private SyncTraces() {}

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  /**
   * Runs {@code app} without and with the agent (recording into {@code tmp/trace}): both must exit
   * 0 with the same stdout and print nothing on stderr; the trace must be complete and free of
   * weaving errors. Returns the trace and the traced run's stdout.
   */
  static Run run(Path jdk, Path tmp, String options, Class<?> app, String... args) {
    return runOn(ChildJvm.classPath(), jdk, tmp, options, app, args);
  }

  /** As {@link #run}, with class path {@code cp} (the test classes and a library's jars). */
  static Run runOn(String cp, Path jdk, Path tmp, String options, Class<?> app, String... args) {
    Path trace = tmp.resolve("trace");
    String main = app.getName();
    ChildJvm.Result plain = ChildJvm.run(ChildJvm.command(jdk, null, cp, main, args), tmp);
    String agent = "out=" + trace + (options.isEmpty() ? "" : "," + options);
    ChildJvm.Result traced = ChildJvm.run(ChildJvm.command(jdk, agent, cp, main, args), tmp);
    assertEquals(0, plain.exitCode(), plain.stderr());
    assertEquals(0, traced.exitCode(), traced.stderr());
    assertEquals("", plain.stderr());
    assertEquals("", traced.stderr(), "the agent prints nothing when out= is given");
    assertEquals(plain.stdout(), traced.stdout(), "the agent must not change the output");
    TraceFacts t = TraceFacts.read(trace);
    assertTrue(t.definitions.closedCleanly());
    assertEquals(List.of(), t.warnings);
    for (StreamCursor.State s : t.states.values()) {
      assertEquals(StreamCursor.State.COMPLETE, s);
    }
    assertNull(
        t.definitions.attributes().get("agent.weave_errors"),
        String.valueOf(t.definitions.attributes().get("agent.first_weave_error")));
    assertRecorderNeverTracedItself(t);
    return new Run(t, traced.stdout());
  }

  /** A traced run. */
  record Run(TraceFacts trace, String stdout) {}

  /** No stream of the agent's threads, no object or region of the agent's classes. */
  static void assertRecorderNeverTracedItself(TraceFacts t) {
    for (ThreadDef d : t.definitions.threads()) {
      assertFalse(d.name().startsWith("weft-"), "agent thread traced: " + d.name());
    }
    for (RegionDef r : t.definitions.regions()) {
      assertFalse(r.declaringClass().startsWith("dev.weft.agent."), "agent region: " + r);
    }
    for (Event e : t.all()) {
      if (e.kind().indexOf(Field.OBJECT) >= 0) {
        ObjectDef o = t.definitions.object(e.get(Field.OBJECT));
        if (o != null) {
          assertFalse(o.className().startsWith("dev.weft.agent."), "agent object: " + o);
        }
      }
    }
  }

  /** The 1-based line of {@code app}'s source that contains {@code marker}. */
  static int lineOf(Class<?> app, String marker) {
    Path source = Path.of("src/test/java", app.getName().replace('.', '/') + ".java");
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

  /** The ids of the tasks created in pool {@code pool}. */
  static Set<Long> tasksCreatedIn(TraceFacts t, long pool) {
    Set<Long> created = new HashSet<>();
    for (Event e : t.all()) {
      if (e.kind() == EventKind.TASK_CREATE && e.get(Field.POOL) == pool) {
        created.add(e.get(Field.TASK));
      }
    }
    return created;
  }

  /**
   * The pool of the threads whose names {@code named} accepts (their streams go to {@code
   * workers}): there are some, all of one pool, and it is a pool (not 0).
   */
  static long poolOfThreads(TraceFacts t, Predicate<String> named, Set<Integer> workers) {
    Set<Long> pools = new HashSet<>();
    for (ThreadDef d : t.definitions.streamDefinitions()) {
      if (named.test(d.name()) && !d.isSupplement()) {
        workers.add(d.stream());
        pools.add((long) d.pool());
      }
    }
    assertTrue(!workers.isEmpty(), "the pool's workers");
    assertEquals(1, pools.size(), "one pool for all its workers: " + pools);
    long pool = pools.iterator().next();
    assertTrue(pool != 0, "the workers are the pool's");
    return pool;
  }

  /** The stream of the thread last named {@code name}. */
  static int stream(TraceFacts t, String name) {
    for (ThreadDef d : t.definitions.threads()) {
      if (d.name().equals(name)) {
        return d.stream();
      }
    }
    throw new AssertionError("no thread " + name + " in " + t.definitions.threads());
  }

  /** The region of an event (REGION field). */
  static RegionDef regionOf(TraceFacts t, Event e) {
    return t.definitions.region((int) e.get(Field.REGION));
  }

  /** The regions named {@code name} at {@code line} of {@code app}'s source. */
  static List<Integer> regionsAt(TraceFacts t, Class<?> app, String name, int line) {
    List<Integer> out = new ArrayList<>();
    String file = app.getSimpleName() + ".java";
    for (RegionDef r : t.definitions.regions()) {
      if (r.name().equals(name) && r.file().equals(file) && r.firstLine() == line) {
        out.add(r.id());
      }
    }
    return out;
  }

  /** The events of one stream of a given kind. */
  static List<Event> events(TraceFacts t, int stream, EventKind kind) {
    List<Event> out = new ArrayList<>();
    for (Event e : t.eventsByStream.get(stream)) {
      if (e.kind() == kind) {
        out.add(e);
      }
    }
    return out;
  }

  /** One acquisition of a lock: request (or -1), acquisition, flags, release (or -1). */
  static final class Acquisition {
    final int stream;
    final long request;
    final int requestRegion;
    final long acquired;
    final int flags;
    long released = -1;

    Acquisition(int stream, long request, int requestRegion, long acquired, int flags) {
      this.stream = stream;
      this.request = request;
      this.requestRegion = requestRegion;
      this.acquired = acquired;
      this.flags = flags;
    }

    long waited() {
      return acquired - request;
    }

    boolean took() {
      return (flags & (LockFlags.FAILED | LockFlags.ABORTED)) == 0;
    }

    @Override
    public String toString() {
      return "stream " + stream + " req " + request + " acq " + acquired + " flags " + flags
          + " rel " + released;
    }
  }

  /**
   * Every attempt to take lock {@code id}, per stream in order: each LOCK_ACQUIRED with the request
   * before it, and the LOCK_RELEASED that ends the hold (holds nest: the innermost is released
   * first).
   */
  static List<Acquisition> acquisitions(TraceFacts t, long id) {
    List<Acquisition> out = new ArrayList<>();
    for (var entry : t.eventsByStream.entrySet()) {
      int stream = entry.getKey();
      long request = -1;
      int requestRegion = 0;
      Deque<Acquisition> held = new ArrayDeque<>();
      for (Event e : entry.getValue()) {
        if (e.kind().indexOf(Field.OBJECT) < 0 || e.get(Field.OBJECT) != id) {
          continue;
        }
        switch (e.kind()) {
          case LOCK_REQUEST:
            request = e.time();
            requestRegion = (int) e.get(Field.REGION);
            break;
          case LOCK_ACQUIRED:
            Acquisition a =
                new Acquisition(stream, request, requestRegion, e.time(), (int) e.get(Field.FLAGS));
            request = -1;
            out.add(a);
            if (a.took()) {
              held.push(a);
            }
            break;
          case LOCK_RELEASED:
            if (!held.isEmpty()) {
              held.pop().released = e.time();
            }
            break;
          default:
            break;
        }
      }
    }
    return out;
  }

  /** The ids of the objects defined with this kind. */
  static List<Long> objectsOfKind(TraceFacts t, dev.weft.trace.ConstructKind kind) {
    List<Long> out = new ArrayList<>();
    for (Event e : t.all()) {
      if (e.kind().indexOf(Field.OBJECT) >= 0) {
        ObjectDef o = t.definitions.object(e.get(Field.OBJECT));
        if (o != null && o.kind() == kind && !out.contains(o.id())) {
          out.add(o.id());
        }
      }
    }
    return out;
  }
}
