package dev.weft.agent.record;

import dev.weft.agent.bridge.WeftBridge;
import java.lang.invoke.MethodHandles;
import java.util.function.Predicate;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Whether an object's monitor is free, read from the object's header (HotSpot only): the recorder
 * gives an acquisition that found its lock free one timestamp for request and acquisition.
 *
 * <p>HotSpot keeps a monitor's state in the low bits of the object's mark word: {@code 001} for an
 * object nobody has locked, anything else for one that is locked (stack-locked, fast-locked,
 * biased) or has an inflated monitor (which may have waiters or an owner). Only {@code 001} counts
 * as free, so every doubt takes the careful path.
 *
 * <p>The header is read with {@code jdk.internal.misc.Unsafe} by a tiny class generated here and
 * defined in {@code java.base} next to the bridge (code in java.base may use its internals), which
 * hands an instance to the bridge when it is initialised. Method handles would do the same from
 * here, but creating them costs tens of milliseconds of start-up; defining this class costs well
 * under one. On another JVM, with the unshaded bridge (unit tests), or when anything is not as
 * expected, no monitor is ever seen free.
 */
final class MonitorHeaders {
  /** Binary name of the generated class, in the bridge's package. */
  private static final String READER = "java.lang.WeftMonitorHeaders";

  private MonitorHeaders() {}

  /**
   * The reader of monitor headers (its {@code test(o)} is true when nobody holds {@code o}'s
   * monitor and it is not inflated), defined on first use; null when not available.
   */
  static Predicate<Object> reader() {
    String bridge = WeftBridge.class.getName();
    if (!bridge.startsWith("java.lang.") || !isHotSpot()) {
      return null;
    }
    try {
      if (WeftBridge.monitorHeaders() == null) {
        Class<?> defined;
        try {
          defined = Class.forName(READER, false, null);
        } catch (ClassNotFoundException e) {
          // java.lang is open to the agent (the bridge was defined there the same way).
          defined =
              MethodHandles.privateLookupIn(Object.class, MethodHandles.lookup())
                  .defineClass(readerClass(bridge.replace('.', '/')));
        }
        Class.forName(defined.getName(), true, null); // its initialiser hands over the reader
      }
      Predicate<Object> reader = WeftBridge.monitorHeaders();
      return reader != null && worksHere(reader) ? reader : null;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  private static boolean isHotSpot() {
    String vm = System.getProperty("java.vm.name", "");
    return vm.contains("HotSpot") || vm.contains("OpenJDK");
  }

  /** The header layout is the expected one: a fresh object is free, a held one is not. */
  private static boolean worksHere(Predicate<Object> reader) {
    Object probe = new Object();
    if (!reader.test(probe)) {
      return false;
    }
    synchronized (probe) {
      return !reader.test(probe);
    }
  }

  /**
   * The class file of {@code final class java.lang.WeftMonitorHeaders implements Predicate}, whose
   * {@code test(o)} is {@code (Unsafe.getUnsafe().getLong(o, 0) & 7) == 1}, computed without a
   * branch (so the class needs no stack map frames), and whose static initialiser stores an
   * instance in the bridge's {@code monitorHeaders}.
   */
  private static byte[] readerClass(String bridge) {
    String self = READER.replace('.', '/');
    String unsafe = "jdk/internal/misc/Unsafe";
    ClassWriter cw = new ClassWriter(0);
    cw.visit(
        Opcodes.V11,
        Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
        self,
        null,
        "java/lang/Object",
        new String[] {"java/util/function/Predicate"});

    MethodVisitor init = cw.visitMethod(Opcodes.ACC_PRIVATE, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(1, 1);
    init.visitEnd();

    MethodVisitor test =
        cw.visitMethod(Opcodes.ACC_PUBLIC, "test", "(Ljava/lang/Object;)Z", null, null);
    test.visitCode();
    test.visitMethodInsn(Opcodes.INVOKESTATIC, unsafe, "getUnsafe", "()L" + unsafe + ";", false);
    test.visitVarInsn(Opcodes.ALOAD, 1);
    test.visitInsn(Opcodes.LCONST_0);
    test.visitMethodInsn(Opcodes.INVOKEVIRTUAL, unsafe, "getLong", "(Ljava/lang/Object;J)J", false);
    // x = (mark & 7) ^ 1 is 0 exactly when free; (x - 1) >>> 63 is then 1, else 0.
    test.visitLdcInsn(7L);
    test.visitInsn(Opcodes.LAND);
    test.visitInsn(Opcodes.LCONST_1);
    test.visitInsn(Opcodes.LXOR);
    test.visitInsn(Opcodes.LCONST_1);
    test.visitInsn(Opcodes.LSUB);
    test.visitIntInsn(Opcodes.BIPUSH, 63);
    test.visitInsn(Opcodes.LUSHR);
    test.visitInsn(Opcodes.L2I);
    test.visitInsn(Opcodes.IRETURN);
    test.visitMaxs(4, 2);
    test.visitEnd();

    MethodVisitor clinit = cw.visitMethod(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
    clinit.visitCode();
    clinit.visitTypeInsn(Opcodes.NEW, self);
    clinit.visitInsn(Opcodes.DUP);
    clinit.visitMethodInsn(Opcodes.INVOKESPECIAL, self, "<init>", "()V", false);
    clinit.visitFieldInsn(
        Opcodes.PUTSTATIC, bridge, "monitorHeaders", "Ljava/util/function/Predicate;");
    clinit.visitInsn(Opcodes.RETURN);
    clinit.visitMaxs(2, 0);
    clinit.visitEnd();

    cw.visitEnd();
    return cw.toByteArray();
  }
}
