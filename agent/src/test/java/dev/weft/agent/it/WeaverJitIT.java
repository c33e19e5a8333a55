package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm.Result;
import dev.weft.agentit.apps.CompilerDirectivesApp;
import dev.weft.agentit.apps.HelloApp;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The weaving code is compiled by C1 only (agent/OPTIONS.md, {@code weaver.jit}): the JVM holds the
 * agent's compiler directive, which names the weaving packages and nothing of the recorder, and the
 * trace says so. {@code weaver.jit=any} leaves the JVM's compilers alone, and a JVM without {@code
 * jdk.management} records as ever, with the reason in the trace.
 */
@Tag("child-jvm")
class WeaverJitIT {
  @TempDir Path tmp;

  static List<Path> jdks() {
    return ChildJvm.jdks().toList();
  }

  private Result run(Path jdk, String options, List<String> jvmOptions, Class<?> app) {
    List<String> cmd = ChildJvm.command(jdk, options, ChildJvm.classPath(), app.getName());
    cmd.addAll(1, jvmOptions);
    Result r = ChildJvm.run(cmd, tmp);
    assertEquals(0, r.exitCode(), r.stderr());
    assertEquals("", r.stderr());
    return r;
  }

  private static String attribute(Path trace) {
    return TraceFacts.read(trace).definitions.attributes().get("agent.weaver_jit");
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void weavingPackagesAreLeftToC1(Path jdk) {
    Path trace = tmp.resolve("trace");
    Result r = run(jdk, "out=" + trace, List.of(), CompilerDirectivesApp.class);
    String directives = r.stdout();
    for (String pkg :
        List.of(
            "dev/weft/agent/shaded/asm/*",
            "dev/weft/agent/constructs/*",
            "dev/weft/agent/weave/*")) {
      assertTrue(directives.contains(pkg), pkg + " in\n" + directives);
    }
    // The recording code stays for C2: the trace writer, the recorder, the bridge.
    assertFalse(directives.contains("shaded/trace"), directives);
    assertFalse(directives.contains("agent/record"), directives);
    assertFalse(directives.contains("java/lang"), directives);
    assertEquals("c1", attribute(trace));
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void weaverJitAnyAddsNoDirective(Path jdk) {
    Path trace = tmp.resolve("trace");
    Result r = run(jdk, "out=" + trace + ",weaver.jit=any", List.of(), CompilerDirectivesApp.class);
    assertFalse(r.stdout().contains("dev/weft"), r.stdout());
    assertEquals("c1 and c2 (weaver.jit=any)", attribute(trace));
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void withoutJdkManagementTheAgentRecordsAndSaysWhy(Path jdk) {
    Path trace = tmp.resolve("trace");
    List<String> limited =
        List.of("--limit-modules", "java.base,java.instrument,java.management,jdk.jfr");
    Result r = run(jdk, "out=" + trace, limited, HelloApp.class);
    assertEquals("Hello, world", r.stdout().strip());
    assertEquals("c1 and c2 (no jdk.management module)", attribute(trace));
    assertTrue(TraceFacts.read(trace).definitions.threads().size() > 0);
  }
}
