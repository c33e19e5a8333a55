package dev.weft.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.agent.bridge.WeftCalleeBridge;
import dev.weft.agent.bridge.WeftSink;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Type;

/** The {@link Bridge} constants and {@code WeftBridge}'s event methods match one to one. */
class BridgeTest {

  /**
   * The public static methods of the bridge classes that woven code may call: all but the sink's
   * own.
   */
  private static List<Method> eventMethods() {
    List<Method> out = new ArrayList<>();
    List<Method> all = new ArrayList<>(List.of(WeftBridge.class.getDeclaredMethods()));
    all.addAll(List.of(WeftCalleeBridge.class.getDeclaredMethods()));
    for (Method m : all) {
      int modifiers = m.getModifiers();
      boolean sinkManagement =
          m.getReturnType() == WeftSink.class
              || List.of(m.getParameterTypes()).contains(WeftSink.class);
      if (Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers) && !sinkManagement) {
        out.add(m);
      }
    }
    return out;
  }

  @Test
  void everyConstantIsAPublicStaticBridgeMethod() {
    Set<String> methods = new TreeSet<>();
    for (Method m : eventMethods()) {
      methods.add(
          Type.getInternalName(m.getDeclaringClass())
              + "."
              + m.getName()
              + Type.getMethodDescriptor(m));
    }
    for (Bridge b : Bridge.values()) {
      assertTrue(
          methods.contains(b.owner() + "." + b.methodName() + b.descriptor()),
          b + ": no public static " + b.owner() + "." + b.methodName() + b.descriptor());
    }
  }

  @Test
  void everyEventMethodHasAConstant() {
    Set<String> constants = new TreeSet<>();
    for (Bridge b : Bridge.values()) {
      constants.add(b.owner() + "." + b.methodName() + b.descriptor());
    }
    Set<String> missing = new TreeSet<>();
    for (Method m : eventMethods()) {
      String key =
          Type.getInternalName(m.getDeclaringClass())
              + "."
              + m.getName()
              + Type.getMethodDescriptor(m);
      if (!constants.contains(key)) {
        missing.add(key);
      }
    }
    assertEquals(Set.of(), missing, "WeftBridge methods without a Bridge constant");
    assertEquals(EnumSet.allOf(Bridge.class).size(), eventMethods().size());
  }
}
