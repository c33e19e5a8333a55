package dev.weft.agentit.apps;

import dev.weft.api.Traced;
import java.lang.reflect.Method;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * An application that ships its own (older) Byte Buddy and ASM and uses them at run time: it must
 * work the same with the agent, which carries newer, relocated copies.
 */
public final class OldLibrariesApp {

  @Traced
  static String generateWithByteBuddy() throws Exception {
    Class<?> type =
        new ByteBuddy()
            .subclass(Object.class)
            .method(ElementMatchers.named("toString"))
            .intercept(FixedValue.value("made by Byte Buddy"))
            .make()
            .load(OldLibrariesApp.class.getClassLoader(), ClassLoadingStrategy.Default.WRAPPER)
            .getLoaded();
    return type.getDeclaredConstructor().newInstance().toString();
  }

  @Traced
  static String generateWithAsm() throws Exception {
    ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "gen/Answer", null, "java/lang/Object", null);
    MethodVisitor mv =
        cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "answer", "()I", null, null);
    mv.visitCode();
    mv.visitIntInsn(Opcodes.BIPUSH, 42);
    mv.visitInsn(Opcodes.IRETURN);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    byte[] bytes = cw.toByteArray();
    ClassLoader loader =
        new ClassLoader(OldLibrariesApp.class.getClassLoader()) {
          @Override
          protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (name.equals("gen.Answer")) {
              return defineClass(name, bytes, 0, bytes.length);
            }
            throw new ClassNotFoundException(name);
          }
        };
    Method m = loader.loadClass("gen.Answer").getMethod("answer");
    return "asm answer " + m.invoke(null);
  }

  private static String jarOf(Class<?> c) {
    String path = c.getProtectionDomain().getCodeSource().getLocation().getPath();
    return path.substring(path.lastIndexOf('/') + 1);
  }

  public static void main(String[] args) throws Exception {
    System.out.println("byte buddy from " + jarOf(ByteBuddy.class));
    System.out.println("asm from " + jarOf(ClassWriter.class));
    System.out.println(generateWithByteBuddy());
    System.out.println(generateWithAsm());
  }
}
