package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm.Result;
import dev.weft.agentit.apps.ThreadChurnApp;
import dev.weft.trace.EventKind;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceVerifier;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A thread per task: each recorded thread's stream is finished when the thread ends, so the program
 * does not run out of file descriptors (or mappings) because of the recording, however many threads
 * it starts; the trace reads complete.
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
