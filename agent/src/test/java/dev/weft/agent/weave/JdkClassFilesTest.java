package dev.weft.agent.weave;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A JDK class's file as a retransformation gives it (rebuilt by the JVM) is woven from the runtime
 * image's file when it lacks the frames the image's has and its code is the same; otherwise as
 * given.
 */
class JdkClassFilesTest {
  private static final String TIMER_THREAD = "java/util/TimerThread";

  @Test
  void aRebuiltFileWithoutFramesIsReplacedByTheImagesFile() throws IOException {
    byte[] image = image(TIMER_THREAD);
    byte[] rebuilt = withoutFrames(image, false);
    byte[] chosen = JdkClassFiles.withFrames(TIMER_THREAD, null, rebuilt);
    assertTrue(Arrays.equals(image, chosen), "the runtime image's class file, with its frames");
  }

  @Test
  void aRebuiltFileWithItsFramesIsKept() throws IOException {
    byte[] image = image(TIMER_THREAD);
    assertSame(image, JdkClassFiles.withFrames(TIMER_THREAD, null, image));
  }

  @Test
  void codeSomeoneElseChangedIsKeptAsItIs() throws IOException {
    byte[] changed = withoutFrames(image(TIMER_THREAD), true);
    assertSame(changed, JdkClassFiles.withFrames(TIMER_THREAD, null, changed));
  }

  @Test
  void aClassNotInTheImageIsKeptAsItIs() throws IOException {
    byte[] rebuilt = withoutFrames(image(TIMER_THREAD), false);
    assertSame(rebuilt, JdkClassFiles.withFrames("java/util/NoSuchClass", null, rebuilt));
  }

  private static byte[] image(String internalName) throws IOException {
    try (InputStream in = ClassLoader.getSystemResourceAsStream(internalName + ".class")) {
      return in.readAllBytes();
    }
  }

  /**
   * The class file without its frames, as JDK 17 rebuilds it; with a NOP more in run() if asked.
   */
  private static byte[] withoutFrames(byte[] classfile, boolean changeCode) {
    ClassWriter w = new ClassWriter(0);
    new ClassReader(classfile)
        .accept(
            new ClassVisitor(Opcodes.ASM9, w) {
              @Override
              public MethodVisitor visitMethod(
                  int access, String name, String desc, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, desc, signature, exceptions);
                if (!changeCode || !name.equals("run")) {
                  return mv;
                }
                return new MethodVisitor(Opcodes.ASM9, mv) {
                  @Override
                  public void visitCode() {
                    super.visitCode();
                    super.visitInsn(Opcodes.NOP);
                  }
                };
              }
            },
            ClassReader.SKIP_FRAMES);
    byte[] out = w.toByteArray();
    assertFalse(hasFrames(out));
    return out;
  }

  private static boolean hasFrames(byte[] classfile) {
    boolean[] seen = new boolean[1];
    new ClassReader(classfile)
        .accept(
            new ClassVisitor(Opcodes.ASM9) {
              @Override
              public MethodVisitor visitMethod(
                  int access, String name, String desc, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                  @Override
                  public void visitFrame(
                      int type, int locals, Object[] local, int stack, Object[] stackItems) {
                    seen[0] = true;
                  }
                };
              }
            },
            0);
    return seen[0];
  }
}
