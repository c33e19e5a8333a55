package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.ChildJvm;
import dev.weft.agentit.apps.sync.CompiledSyncApp;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Woven synchronisation stays compilable: C1 and C2 compile every hot woven method ({@link
 * CompiledSyncApp}), none is skipped, and the JVM's monitor matching finds nothing to report.
 * Compilation is synchronous ({@code -Xbatch}) so that it happens before the program ends.
 */
@Tag("child-jvm")
class CompilationIT {
  private static final List<String> METHODS =
      List.of(
          "staticMethod",
          "instanceMethod",
          "methodWithBlock",
          "block",
          "nestedBlocks",
          "loopInBlock",
          "blockWithTryCatch",
          "lockCalls",
          "interruptibleInBlock",
          "waitInMethod",
          "permit");

  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void wovenMethodsAreCompiledByBothCompilers(Path jdk) {
    List<String> cmd =
        ChildJvm.command(
            jdk,
            "out=" + tmp.resolve("trace"),
            ChildJvm.classPath(),
            CompiledSyncApp.class.getName());
    cmd.addAll(1, List.of("-Xbatch", "-XX:+PrintCompilation", "-Xlog:monitormismatch=info"));
    ChildJvm.Result r = ChildJvm.run(cmd, tmp);
    assertEquals(0, r.exitCode(), r.stderr());
    assertEquals("", r.stderr());
    String prefix = CompiledSyncApp.class.getName() + "::";
    for (String line : r.stdout().split("\\R")) {
      assertFalse(line.contains("monitormismatch"), line);
      if (line.contains(prefix)) {
        assertFalse(line.contains("COMPILE SKIPPED"), line);
        assertFalse(line.contains("not compilable"), line);
      }
    }
    for (String m : METHODS) {
      for (int tier : new int[] {3, 4}) {
        assertTrue(
            compiledAt(r.stdout(), prefix + m + " ", tier),
            m + " compiled at tier " + tier + ":\n" + r.stdout());
      }
    }
  }

  /** Whether PrintCompilation shows {@code method} compiled (not OSR) at {@code tier}. */
  private static boolean compiledAt(String out, String method, int tier) {
    for (String line : out.split("\\R")) {
      int at = line.indexOf(method);
      if (at < 0 || line.contains("made not entrant")) {
        continue;
      }
      // "  timestamp  id  flags  tier  method (size)": the tier is the last number before the name
      String[] fields = line.substring(0, at).trim().split("\\s+");
      if (fields[fields.length - 1].equals(Integer.toString(tier))
          && !line.substring(0, at).contains("%")) {
        return true;
      }
    }
    return false;
  }
}
