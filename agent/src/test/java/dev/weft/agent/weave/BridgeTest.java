package dev.weft.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.bridge.WeftBridge;
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

  /** The public static methods of WeftBridge that woven code may call: all but the sink's own. */
  private static List<Method> eventMethods() {
    List<Method> out = new ArrayList<>();
    for (Method m : WeftBridge.class.getDeclaredMethods()) {
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
      methods.add(m.getName() + Type.getMethodDescriptor(m));
    }
    for (Bridge b : Bridge.values()) {
      assertTrue(
          methods.contains(b.methodName() + b.descriptor()),
          b + ": no public static WeftBridge." + b.methodName() + b.descriptor());
    }
  }

  @Test
  void everyEventMethodHasAConstant() {
    Set<String> constants = new TreeSet<>();
    for (Bridge b : Bridge.values()) {
      constants.add(b.methodName() + b.descriptor());
    }
    Set<String> missing = new TreeSet<>();
    for (Method m : eventMethods()) {
      String key = m.getName() + Type.getMethodDescriptor(m);
      if (!constants.contains(key)) {
        missing.add(key);
      }
    }
    assertEquals(Set.of(), missing, "WeftBridge methods without a Bridge constant");
    assertEquals(EnumSet.allOf(Bridge.class).size(), eventMethods().size());
  }
}
