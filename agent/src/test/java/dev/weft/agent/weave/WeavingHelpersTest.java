package dev.weft.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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

/**
 * The helpers construct families use for JDK classes, applied to {@link Sample} and run: enter,
 * return and throw hooks land where they should, and the class still behaves as before.
 */
class WeavingHelpersTest {
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

  private WeaveTarget target() throws Exception {
    try (InputStream in = Sample.class.getResourceAsStream("Sample.class")) {
      return new WeaveTarget(
          "dev/weft/agent/weave/Sample",
          Sample.class.getClassLoader(),
          in.readAllBytes(),
          false,
          new RegionRegistry(writer));
    }
  }

  /** Hooks every method and constructor: enter 1, exit 2 on return, exit 3 on throw. */
  private static ClassVisitor hookAll(ClassVisitor writer, WeaveTarget t) {
    return new ClassVisitor(Opcodes.ASM9, writer) {
      private int version;

      @Override
      public void visit(int v, int a, String n, String s, String sup, String[] i) {
        version = v;
        super.visit(v, a, n, s, sup, i);
      }

      @Override
      public MethodVisitor visitMethod(int a, String n, String d, String s, String[] e) {
        MethodVisitor mv = super.visitMethod(a, n, d, s, e);
        return new HookedMethod(mv, t.internalName(), a, n, d, version) {
          @Override
          protected boolean shouldHook() {
            t.changed();
            return true;
          }

          @Override
          protected void onEnter() {
            Bridge.ENTER.callWithRegion(mv, 1);
          }

          @Override
          protected void onReturn(int opcode) {
            Bridge.EXIT.callWithRegion(mv, 2);
          }

          @Override
          protected void onThrow() {
            Bridge.EXIT.callWithRegion(mv, 3);
          }
        };
      }
    };
  }

  @Test
  void hookedMethodsSeeEnterReturnAndThrow() throws Exception {
    Class<?> woven = define(AsmWeaving.weave(target(), WeavingHelpersTest::hookAll));
    Constructor<?> make = woven.getConstructor(String.class);
    Object sample = make.newInstance(" x ");
    assertEquals(List.of("enter 1", "exit 2"), take());

    Method twice = woven.getMethod("twice", int.class);
    assertEquals(8, twice.invoke(sample, 4));
    assertEquals(-1, twice.invoke(sample, -4));
    assertEquals(List.of("enter 1", "exit 2", "enter 1", "exit 2"), take());

    Method mix = woven.getMethod("mix", long.class, double.class, Object.class);
    assertEquals(-5L, mix.invoke(sample, 5L, 1.5, null), "the method's own handler still runs");
    assertEquals(List.of("enter 1", "exit 2"), take());

    Method boom = woven.getMethod("boom", String.class);
    InvocationTargetException e =
        assertThrows(InvocationTargetException.class, () -> boom.invoke(null, "why"));
    assertEquals("why", e.getCause().getMessage());
    assertEquals(List.of("enter 1", "exit 3"), take());

    // An exception after super(): the handler covers the constructor body.
    assertThrows(InvocationTargetException.class, () -> make.newInstance((Object) null));
    assertEquals(List.of("enter 1", "exit 3"), take());
  }

  @Test
  void nothingChangedGivesNull() throws Exception {
    assertNull(AsmWeaving.weave(target(), (w, t) -> w));
  }

  private List<String> take() {
    List<String> out = List.copyOf(sink.calls);
    sink.calls.clear();
    return out;
  }

  /** Defines the woven bytes as a new class of the same name in a child loader. */
  private static Class<?> define(byte[] bytes) throws Exception {
    ClassLoader loader =
        new ClassLoader(WeavingHelpersTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.equals(Sample.class.getName())) {
              synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, bytes, 0, bytes.length);
              }
            }
            return super.loadClass(name, resolve);
          }
        };
    return loader.loadClass(Sample.class.getName());
  }
}
