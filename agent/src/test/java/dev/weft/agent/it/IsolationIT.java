package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm.Result;
import dev.weft.agentit.apps.OldLibrariesApp;
import dev.weft.agentit.apps.ReflectionReachApp;
import dev.weft.agentit.apps.SynchronizedFlagsApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent keeps to itself. Its ASM is relocated and it has no Byte Buddy: an application that
 * ships its own, older copies of both keeps using them, with the same results, while the agent
 * weaves and records. And the packages it opens to itself stay closed to the application.
 */
@Tag("child-jvm")
class IsolationIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  private static Path lib(String prefix) throws IOException {
    return ChildJvm.itLib(prefix);
  }

  /**
   * Runs {@code app} without the agent and with it (recording into {@code trace}): both exit 0, and
   * the recorded run prints the same and nothing on stderr.
   */
  private Result runAsWithoutTheAgent(Path jdk, String cp, Class<?> app, Path trace)
      throws IOException {
    Result plain = ChildJvm.run(ChildJvm.command(jdk, null, cp, app.getName()), tmp);
    Result traced = ChildJvm.run(ChildJvm.command(jdk, "out=" + trace, cp, app.getName()), tmp);
    assertEquals(0, plain.exitCode(), plain.stderr());
    assertEquals(0, traced.exitCode(), traced.stderr());
    assertEquals(plain.stdout(), traced.stdout());
    assertEquals("", traced.stderr());
    return traced;
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void applicationKeepsItsOwnByteBuddyAndAsm(Path jdk) throws IOException {
    Path byteBuddy = lib("byte-buddy-");
    Path asm = lib("asm-");
    String cp = ChildJvm.classPath(byteBuddy, asm);
    Path trace = tmp.resolve("trace");
    Result traced = runAsWithoutTheAgent(jdk, cp, OldLibrariesApp.class, trace);
    assertTrue(
        traced.stdout().contains("byte buddy from " + byteBuddy.getFileName()), traced.stdout());
    assertTrue(traced.stdout().contains("asm from " + asm.getFileName()), traced.stdout());
    assertTrue(traced.stdout().contains("made by Byte Buddy"), traced.stdout());
    assertTrue(traced.stdout().contains("asm answer 42"), traced.stdout());

    TraceFacts t = TraceFacts.read(trace);
    int bb = t.region("OldLibrariesApp.generateWithByteBuddy").id();
    int a = t.region("OldLibrariesApp.generateWithAsm").id();
    assertEquals(1, t.count(EventKind.ENTER, bb));
    assertEquals(1, t.count(EventKind.EXIT, a));
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void packagesOpenedToTheAgentStayClosedToTheApplication(Path jdk) throws IOException {
    Path trace = tmp.resolve("trace");
    Result traced =
        runAsWithoutTheAgent(jdk, ChildJvm.classPath(), ReflectionReachApp.class, trace);
    for (String field : List.of("ReentrantLock.sync", "CyclicBarrier.generation", "String.value")) {
      assertTrue(traced.stdout().contains(field + ": refused"), traced.stdout());
    }
    // The agent itself did reach them: the lock was recorded.
    assertEquals(1, TraceFacts.read(trace).count(EventKind.LOCK_ACQUIRED));
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void rewrittenSynchronizedMethodsKeepTheirFlagForReflection(Path jdk) throws IOException {
    Path trace = tmp.resolve("trace");
    Result traced =
        runAsWithoutTheAgent(jdk, ChildJvm.classPath(), SynchronizedFlagsApp.class, trace);
    assertTrue(traced.stdout().contains("getMethod: public synchronized"), traced.stdout());
    // The methods were rewritten and recorded: every entry is a request and an acquisition.
    TraceFacts t = TraceFacts.read(trace);
    long methodRegions =
        t.all().stream()
            .filter(e -> e.kind() == EventKind.LOCK_REQUEST)
            .filter(
                e ->
                    t.definitions.region((int) e.get(Field.REGION)).kind()
                        == ConstructKind.SYNCHRONIZED_METHOD)
            .count();
    assertEquals(3000, methodRegions);
  }
}
