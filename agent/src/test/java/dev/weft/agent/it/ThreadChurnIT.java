package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm.Result;
import dev.weft.agentit.apps.ThreadChurnApp;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceFiles;
import dev.weft.trace.TraceVerifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A thread per task: each recorded thread gives its stream up when it ends, to host the next thread
 * or be finished, so the program does not run out of file descriptors (or mappings, or disk)
 * because of the recording, however many threads it starts; the trace reads complete, each thread
 * as its own.
 */
@Tag("child-jvm")
class ThreadChurnIT {
  @TempDir Path tmp;

  private static final int THREADS = 1500;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void endedThreadsHoldNoFileOfTheProgram(Path jdk) throws Exception {
    Path trace = tmp.resolve("trace");
    String cp = ChildJvm.classPath();
    String app = ThreadChurnApp.class.getName();
    Result traced = ChildJvm.run(ChildJvm.command(jdk, "out=" + trace, cp, app, "" + THREADS), tmp);
    assertEquals(0, traced.exitCode(), traced.stderr());
    assertEquals("", traced.stderr());
    assertTrue(traced.stdout().contains("total: " + (THREADS + 1)), traced.stdout());
    long before = printed(traced, "fds before");
    long after = printed(traced, "fds after");
    // The live threads' streams and the trace's own files: a few, not one per ended thread.
    assertTrue(after - before < 50, "open files grew from " + before + " to " + after);

    TraceFacts facts = TraceFacts.read(trace);
    assertEquals(
        THREADS + 2, facts.count(EventKind.THREAD_END), "every task thread and main ended");
    // One after the other, each task thread is hosted on the file of one that ended before it.
    try (Stream<Path> files = Files.list(trace.resolve(TraceFiles.EVENTS_DIR))) {
      long n = files.count();
      assertTrue(n < 10, n + " event files for " + (THREADS + 2) + " threads");
    }
    long hosted = facts.definitions.threads().stream().filter(ThreadDef::isHosted).count();
    assertTrue(hosted >= THREADS, hosted + " threads hosted");
    for (int i = 0; i < THREADS; i++) {
      String name = "task-" + i;
      ThreadDef task =
          facts.definitions.threads().stream()
              .filter(d -> d.name().equals(name))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no thread " + name));
      List<Event> events = facts.eventsByStream.get(task.stream());
      assertEquals(EventKind.THREAD_BEGIN, events.get(0).kind(), name);
      assertEquals(EventKind.THREAD_END, events.get(events.size() - 1).kind(), name);
    }
    for (StreamCursor.State s : facts.states.values()) {
      assertEquals(StreamCursor.State.COMPLETE, s, facts.problems.toString());
    }
    try (Trace t = Trace.open(trace)) {
      TraceVerifier.VerifyReport v = TraceVerifier.verify(t);
      assertEquals(List.of(), v.errors());
      assertEquals(Trace.Status.COMPLETE, v.integrity().status());
    }
  }

  private static long printed(Result r, String label) {
    for (String line : r.stdout().split("\\R")) {
      if (line.startsWith(label + ": ")) {
        return Long.parseLong(line.substring(label.length() + 2).trim());
      }
    }
    throw new AssertionError("no '" + label + "' in " + r.stdout());
  }
}
