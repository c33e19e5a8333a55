package dev.weft.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.agent.config.AgentOptions;
import dev.weft.agent.record.Recorder;
import dev.weft.agent.record.RegionRegistry;
import dev.weft.trace.TraceWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A class that calls nothing any family weaves is answered from the class scan alone: it comes back
 * unchanged (null) and is never parsed. The proof is a class whose SourceFile attribute points
 * outside the constant pool: the scan does not read it, parsing the class would fail on it (a
 * weaving error).
 */
class UnwovenClassTest {
  private static final ClassLoader APP = UnwovenClassTest.class.getClassLoader();

  private static final String SOURCE = "MarkedSource.java";

  @TempDir Path tmp;
  private TraceWriter writer;
  private Recorder recorder;
  private WeftTransformer transformer;

  @BeforeEach
  void open() throws Exception {
    writer = TraceWriter.create(tmp.resolve("t"), TraceWriter.Options.defaults());
    RegionRegistry regions = new RegionRegistry(writer);
    recorder = new Recorder(writer, regions, true, 0, null, false);
    transformer =
        new WeftTransformer(
            Constructs.all(), AgentOptions.parse("", Map.of(), Map.of()), regions, recorder);
  }

  @AfterEach
  void close() {
    recorder.close(Map.of());
  }

  @Test
  void aClassWithoutTargetCallsIsNeitherParsedNorChanged() {
    byte[] plain = unparsable(classFile("org/shop/Plain", false));
    assertNull(transformer.transform(APP, "org/shop/Plain", null, null, plain));
    assertEquals(0, transformer.errors(), "the code was parsed");
  }

  @Test
  void aClassWithATargetCallIsParsed() {
    byte[] locking = classFile("org/shop/Locking", true);
    assertNotNull(transformer.transform(APP, "org/shop/Locking", null, null, locking));
    // The same class made unparsable: the scan sends it to ASM, which fails on the attribute.
    byte[] broken = unparsable(locking);
    assertNull(transformer.transform(APP, "org/shop/Locking", null, null, broken));
    assertEquals(1, transformer.errors());
  }

  /**
   * A class compiled from {@link #SOURCE} with two methods and, with {@code locks}, a method
   * calling {@code ReentrantLock.lock()} and {@code unlock()}; every other call is to methods of
   * {@code Object} and {@code String} that no family weaves.
   */
  private static byte[] classFile(String name, boolean locks) {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name, null, "java/lang/Object", null);
    cw.visitSource(SOURCE, null);
    MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();
    MethodVisitor other =
        cw.visitMethod(Opcodes.ACC_PUBLIC, "describe", "()Ljava/lang/String;", null, null);
    other.visitCode();
    other.visitVarInsn(Opcodes.ALOAD, 0);
    other.visitMethodInsn(
        Opcodes.INVOKEVIRTUAL, "java/lang/Object", "toString", "()Ljava/lang/String;", false);
    other.visitMethodInsn(
        Opcodes.INVOKEVIRTUAL, "java/lang/String", "trim", "()Ljava/lang/String;", false);
    other.visitInsn(Opcodes.ARETURN);
    other.visitMaxs(0, 0);
    other.visitEnd();
    if (locks) {
      String lock = "java/util/concurrent/locks/ReentrantLock";
      MethodVisitor mv =
          cw.visitMethod(
              Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "locked", "(L" + lock + ";)V", null, null);
      mv.visitCode();
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, lock, "lock", "()V", false);
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, lock, "unlock", "()V", false);
      mv.visitInsn(Opcodes.RETURN);
      mv.visitMaxs(0, 0);
      mv.visitEnd();
    }
    cw.visitEnd();
    return cw.toByteArray();
  }

  /** The class file with its SourceFile attribute's index pointing outside the constant pool. */
  private static byte[] unparsable(byte[] classFile) {
    ClassReader reader = new ClassReader(classFile);
    byte[] name = SOURCE.getBytes(StandardCharsets.UTF_8);
    int index = -1;
    for (int i = 1; i < reader.getItemCount(); i++) {
      int offset = reader.getItem(i); // a UTF8 item: length u2, bytes
      if (offset > 0
          && classFile[offset - 1] == 1
          && reader.readUnsignedShort(offset) == name.length
          && indexOf(classFile, name) == offset + 2) {
        index = i;
      }
    }
    // SourceFile: attribute_name_index u2, attribute_length u4 (2), sourcefile_index u2
    byte[] attribute = {0, 0, 0, 2, (byte) (index >> 8), (byte) index};
    int at = indexOf(classFile, attribute);
    if (index < 0 || at < 0) {
      throw new AssertionError("no SourceFile attribute");
    }
    byte[] out = classFile.clone();
    out[at + 4] = (byte) 0xFF;
    out[at + 5] = (byte) 0xFF;
    return out;
  }

  /** Where {@code needle} first occurs in {@code data}, or -1. */
  private static int indexOf(byte[] data, byte[] needle) {
    outer:
    for (int i = 0; i <= data.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (data[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
