package dev.weft.agent;

import dev.weft.agent.constructs.CalleeHooks;
import dev.weft.agent.record.JvmCommands;
import dev.weft.agent.weave.WeftTransformer;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.objectweb.asm.ClassReader;

/**
 * Asks the JVM to compile the weaving code (the shaded ASM, the construct families, the
 * transformer) with C1 only, through a compiler directive, as {@code jcmd PID
 * Compiler.directives_add FILE} would. The recording code (the bridge, the recorder, the trace
 * writer) is not concerned: C2 still compiles it and the woven application code.
 *
 * <p>Why: weaving runs once per loaded class, and C2 compiled ASM's large methods at great cost for
 * code that soon goes cold. Loading the 3,488 classes of lucene-core and h2 ({@code
 * benchmarks/weave-cost.sh}, 5 interleaved rounds) took 1.63 s of JIT threads' CPU with C2 allowed
 * and 0.84 s with this directive, the loading thread 1.30 s either way: the agent's added CPU per
 * class went from 559 to 356 µs. C2 was also the queue the application's own hot methods waited in
 * on a first run.
 *
 * <p>How: the JVM takes directives only from a file, through a diagnostic command ({@link
 * JvmCommands}: about 10 ms of CPU at start). Where the JVM lacks {@code jdk.management} or
 * refuses, weaving simply stays compilable by C2; the trace attribute {@code agent.weaver_jit} says
 * which. The directive is added once per JVM and stays after a detach (the agent's classes stay
 * loaded, and cold).
 */
final class WeaverCompilation {
  /** The trace attribute that says how the weaving code is compiled. */
  static final String ATTRIBUTE = "agent.weaver_jit";

  /** What the first call found, kept for later attaches. */
  private static String outcome; // guarded by WeaverCompilation.class

  private WeaverCompilation() {}

  /**
   * Adds the directive unless a previous start did; never throws.
   *
   * @return the attribute's value: {@code c1} when the weaving code is compiled by C1 only, else
   *     {@code c1 and c2 (WHY)}
   */
  static synchronized String limitToC1(Instrumentation inst) {
    if (outcome == null) {
      try {
        String refused = addDirective(inst);
        outcome = refused == null ? "c1" : "c1 and c2 (" + refused + ")";
      } catch (Throwable t) {
        outcome = "c1 and c2 (" + t + ")";
      }
    }
    return outcome;
  }

  /**
   * The attribute's value when this start does not ask for C1: still {@code c1} after an earlier
   * start of this JVM's agent added the directive, which cannot be taken back.
   */
  static synchronized String unlessAdded(String why) {
    return "c1".equals(outcome) ? outcome : "c1 and c2 (" + why + ")";
  }

  /** The directive: every method of the weaving packages excluded from C2. */
  static String directive() {
    StringBuilder match = new StringBuilder();
    // Package names read from the classes: the shaded build relocates ASM.
    for (Class<?> c :
        new Class<?>[] {ClassReader.class, CalleeHooks.class, WeftTransformer.class}) {
      match.append(match.length() == 0 ? "" : ", ");
      // A pattern ending in '*' matches the package's subpackages too (asm.commons, asm.tree).
      match.append('"').append(c.getPackageName().replace('.', '/')).append("/*.*\"");
    }
    return "[{match: [" + match + "], c2: {Exclude: true}}]";
  }

  /** Returns null when added, else why not. */
  private static String addDirective(Instrumentation inst) throws Exception {
    JvmCommands.open(inst);
    Path file = directiveFile();
    try {
      String name = file.toString();
      if (name.indexOf('"') >= 0) {
        return "the temporary directory's name holds a quote";
      }
      String text;
      try {
        text = JvmCommands.execute("Compiler.directives_add \"" + name + "\"").trim();
      } catch (IllegalStateException e) {
        return e.getMessage(); // no commands in this JVM
      }
      return text.endsWith("added") ? null : "the JVM answered: " + text;
    } finally {
      deleteQuietly(file);
    }
  }

  /**
   * Writes the directive to a new file in the temporary directory. Named by the clock and an
   * identity hash, not by {@code Files.createTempFile}, whose first use seeds a {@code
   * SecureRandom} (12 of the 28 ms this class took at start), nor by the process id ({@code
   * ProcessHandle}, 5 ms more). {@code CREATE_NEW} refuses a name that exists, a link included.
   */
  private static Path directiveFile() throws IOException {
    byte[] text = directive().getBytes(StandardCharsets.UTF_8);
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    for (int attempt = 0; ; attempt++) {
      String unique =
          Long.toHexString(System.nanoTime())
              + "-"
              + Integer.toHexString(System.identityHashCode(new Object()));
      Path file = dir.resolve("weft-weaver-jit-" + unique + ".json");
      try {
        Files.write(file, text, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return file;
      } catch (FileAlreadyExistsException e) {
        if (attempt == 2) {
          throw e;
        }
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A few bytes in the temporary directory.
    }
  }
}
