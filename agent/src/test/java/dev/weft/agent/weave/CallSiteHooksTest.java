package dev.weft.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.agent.record.RegionRegistry;
import dev.weft.trace.TraceWriter;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** {@link CallSiteHooks} around calls to {@code CallSample.target}, run in a child loader. */
class CallSiteHooksTest {
  private static final String SAMPLE = "dev/weft/agent/weave/CallSample";

  @TempDir Path tmp;
  private TraceWriter writer;
  private RecordingSink sink;

  @BeforeEach
  void install() throws Exception {
    writer = TraceWriter.create(tmp.resolve("t"), TraceWriter.Options.defaults());
    sink = new RecordingSink();
    WeftBridge.install(sink);
  }

  @AfterEach
  void uninstall() throws Exception {
    WeftBridge.install(null);
    writer.close();
  }

  /** enter(line) before each call to target, exit(line) after, exit(-line) when it throws. */
  private static ClassVisitor hookTargetCalls(ClassVisitor writer, WeaveTarget t) {
    return new ClassVisitor(Opcodes.ASM9, writer) {
      @Override
      public MethodVisitor visitMethod(int a, String n, String d, String s, String[] e) {
        MethodVisitor mv = super.visitMethod(a, n, d, s, e);
        return new CallSiteHooks(mv, SAMPLE, a, n, d) {
          @Override
          protected int hookCall(int opcode, String owner, String name, String descriptor) {
            if (owner.equals(SAMPLE) && name.equals("target")) {
              t.changed();
              return line();
            }
            return -1;
          }

          @Override
          protected void beforeCall(int line) {
            BridgeCalls.callWithRegion(mv, "enter", line);
          }

          @Override
          protected void afterCall(int line) {
            BridgeCalls.callWithRegion(mv, "exit", line);
          }

          @Override
          protected void onCallThrow(int line) {
            BridgeCalls.callWithRegion(mv, "exit", -line);
          }
        };
      }
    };
  }

  @Test
  void callsAreHookedOnReturnAndThrowAtTheirLines() throws Exception {
    byte[] bytes;
    try (InputStream in = CallSample.class.getResourceAsStream("CallSample.class")) {
      bytes = in.readAllBytes();
    }
    WeaveTarget target =
        new WeaveTarget(
            SAMPLE, getClass().getClassLoader(), bytes, false, new RegionRegistry(writer));
    Class<?> c = define(AsmWeaving.weave(target, CallSiteHooksTest::hookTargetCalls));

    Constructor<?> make = c.getConstructor(int.class);
    Object sample = make.newInstance(4);
    int ctorLine = callLine(make);
    assertEquals(List.of("enter " + ctorLine, "exit " + ctorLine), take());
    assertThrows(InvocationTargetException.class, () -> make.newInstance(-1));
    assertEquals(List.of("enter " + ctorLine, "exit -" + ctorLine), take());

    Method wide = c.getMethod("wide", long.class, double.class, int.class);
    assertEquals(20L + 2 + 30 + 5, wide.invoke(sample, 10L, 4.0, 2));
    int wideLine = callLine(wide);
    assertEquals(List.of("enter " + wideLine, "exit " + wideLine), take());

    Method caught = c.getMethod("caught", int.class);
    assertEquals(-100, caught.invoke(sample, -5), "the user's handler still runs");
    int caughtLine = callLine(caught);
    assertEquals(List.of("enter " + caughtLine, "exit -" + caughtLine), take());

    Method twice = c.getMethod("twice", int.class, int.class);
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> twice.invoke(null, 1, -2));
    assertEquals("negative -2", e.getCause().getMessage());
    int twiceLine = callLine(twice);
    assertEquals(
        List.of(
            "enter " + twiceLine, "exit " + twiceLine, "enter " + twiceLine, "exit -" + twiceLine),
        take());
  }

  /** The source line of the (single-line) call to target in a member of the original class. */
  private static int callLine(java.lang.reflect.Executable member) throws Exception {
    String name = member.getName().equals(CallSample.class.getName()) ? "<init>" : member.getName();
    int[] line = {0};
    try (InputStream in = CallSample.class.getResourceAsStream("CallSample.class")) {
      new org.objectweb.asm.ClassReader(in.readAllBytes())
          .accept(
              new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(int a, String n, String d, String s, String[] x) {
                  if (!n.equals(name)) {
                    return null;
                  }
                  return new MethodVisitor(Opcodes.ASM9) {
                    int current;

                    @Override
                    public void visitLineNumber(int l, org.objectweb.asm.Label start) {
                      current = l;
                    }

                    @Override
                    public void visitMethodInsn(int o, String ow, String n2, String d2, boolean i) {
                      if (n2.equals("target")) {
                        line[0] = current;
                      }
                    }
                  };
                }
              },
              0);
    }
    return line[0];
  }

  private List<String> take() {
    List<String> out = List.copyOf(sink.calls);
    sink.calls.clear();
    return out;
  }

  private static Class<?> define(byte[] bytes) throws Exception {
    ClassLoader loader =
        new ClassLoader(CallSiteHooksTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.equals(CallSample.class.getName())) {
              synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, bytes, 0, bytes.length);
              }
            }
            return super.loadClass(name, resolve);
          }
        };
    return loader.loadClass(CallSample.class.getName());
  }
}
