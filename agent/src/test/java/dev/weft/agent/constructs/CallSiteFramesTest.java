package dev.weft.agent.constructs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.AnalyzerAdapter;

/**
 * {@link CallSiteFrames} works out, at any call, the same types as an analyzer that followed every
 * instruction of the method, on large JDK classes (branches, switches, objects under construction
 * across frames, long and double slots).
 */
class CallSiteFramesTest {
  private static final List<String> CLASSES =
      List.of(
          "java/util/concurrent/ConcurrentHashMap",
          "java/util/concurrent/ForkJoinPool",
          "java/util/concurrent/ThreadPoolExecutor",
          "java/util/concurrent/CompletableFuture",
          "java/util/HashMap",
          "java/util/Formatter",
          "java/lang/invoke/MethodHandles",
          "java/math/BigDecimal",
          "dev/weft/agent/constructs/CallSiteWeaver");

  private int calls;
  private int callsWithObjectsUnderConstruction;

  @Test
  void typesAtEveryCallMatchAnAnalyzerThatSawEveryInstruction() throws IOException {
    for (String name : CLASSES) {
      compare(name);
    }
    assertTrue(calls > 3_000, "calls compared: " + calls);
    assertTrue(
        callsWithObjectsUnderConstruction > 300,
        "calls with an object under construction: " + callsWithObjectsUnderConstruction);
  }

  private void compare(String className) throws IOException {
    byte[] bytes;
    try (InputStream in = ClassLoader.getSystemResourceAsStream(className + ".class")) {
      bytes = in.readAllBytes();
    }
    new ClassReader(bytes)
        .accept(
            new ClassVisitor(Opcodes.ASM9) {
              @Override
              public MethodVisitor visitMethod(
                  int access, String name, String descriptor, String signature, String[] ex) {
                AnalyzerAdapter everything =
                    new AnalyzerAdapter(className, access, name, descriptor, null);
                CallSiteFrames frames =
                    new CallSiteFrames(className, access, name, descriptor, everything);
                String where = className + "." + name + descriptor;
                return new MethodVisitor(Opcodes.ASM9, frames) {
                  @Override
                  public void visitMethodInsn(
                      int opcode, String owner, String callName, String desc, boolean itf) {
                    AnalyzerAdapter at = frames.at();
                    calls++;
                    if (everything.locals == null) {
                      assertEquals(null, at.locals, where);
                    } else {
                      assertEquals(everything.locals, at.locals, where + " locals");
                      assertEquals(everything.stack, at.stack, where + " stack");
                      if (everything.stack.stream().anyMatch(t -> t instanceof Label)) {
                        callsWithObjectsUnderConstruction++;
                      }
                    }
                    super.visitMethodInsn(opcode, owner, callName, desc, itf);
                  }
                };
              }
            },
            ClassReader.EXPAND_FRAMES);
  }
}
