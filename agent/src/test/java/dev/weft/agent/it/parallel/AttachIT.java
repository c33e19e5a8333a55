package dev.weft.agent.it.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import dev.weft.agent.it.ChildJvm;
import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.parallel.AttachApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent attached to a running program: already-loaded JDK classes (ForkJoinTask, the work
 * queues, ThreadPoolExecutor) and application classes are retransformed, and the parallel work done
 * after the attach is recorded, on 17 and 25.
 */
@Tag("child-jvm")
class AttachIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void workAfterTheAttachIsRecorded(Path jdk) throws Exception {
    Path trace = tmp.resolve("trace");
    Path stop = tmp.resolve("stop");
    List<String> command =
        new ArrayList<>(
            ChildJvm.command(
                jdk, null, ChildJvm.classPath(), AttachApp.class.getName(), stop.toString()));
    command.add(1, "-XX:+EnableDynamicAgentLoading"); // JDK 21+ warns on attach without it
    if (jdk.equals(Path.of(System.getProperty("java.home")))) {
      command.remove(1); // JDK 17 does not know the flag
    }
    Process p = new ProcessBuilder(command).directory(tmp.toFile()).start();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread errReader =
        new Thread(
            () -> {
              try {
                p.getErrorStream().transferTo(err);
              } catch (java.io.IOException ignored) {
                // the child died; what it wrote is kept
              }
            });
    errReader.setDaemon(true);
    errReader.start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    try {
      assertEquals("ready", out.readLine());
      VirtualMachine vm = VirtualMachine.attach(Long.toString(p.pid()));
      try {
        vm.loadAgent(ChildJvm.AGENT_JAR.toString(), "out=" + trace);
      } finally {
        vm.detach();
      }
      Thread.sleep(1_500);
      Files.writeString(stop, "stop");
      assertEquals("done: true", out.readLine());
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      errReader.join();
    } finally {
      p.destroyForcibly();
    }
    assertEquals(0, p.exitValue());
    assertEquals("", err.toString(StandardCharsets.UTF_8), "nothing printed by the agent");

    TraceFacts t = TraceFacts.read(trace);
    assertTrue(t.definitions.closedCleanly());
    assertEquals("true", t.definitions.attributes().get("agent.attached"));
    assertFalse(t.definitions.attributes().containsKey("agent.weave_errors"));
    // The running loop keeps its original code; the methods it calls are woven: the fork-join
    // tasks (JDK) and the task's own join site (application) are recorded.
    assertTrue(count(t, EventKind.TASK_BEGIN) > 0, "fork-join tasks recorded after the attach");
    assertEquals(count(t, EventKind.TASK_BEGIN), count(t, EventKind.TASK_END));
    int joinLine = ParallelRun.lineOf(AttachApp.class, "// round join");
    List<Event> joins = new ArrayList<>();
    for (Event e : t.all()) {
      if (e.kind() == EventKind.JOIN_WAIT_ENTER) {
        RegionDef r = t.definitions.region((int) e.get(Field.REGION));
        if (r.firstLine() == joinLine) {
          assertEquals(ConstructKind.FORK_JOIN_TASK, r.kind());
          joins.add(e);
        }
      }
    }
    assertFalse(joins.isEmpty(), "join waits at the task's join site after the attach");
  }

  private static long count(TraceFacts t, EventKind kind) {
    return t.count(kind);
  }
}
