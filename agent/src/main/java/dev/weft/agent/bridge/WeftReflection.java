package dev.weft.agent.bridge;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Reflection's view of the {@code synchronized} methods the agent rewrote. To time the wait for a
 * method's monitor, the agent removes the modifier and wraps the body in a {@code synchronized}
 * block (agent {@code Monitors}); the locking is the same, but the JVM then reports the method
 * without the modifier. This class puts the flag back where programs read it: a hook at the return
 * of {@code jdk.internal.reflect.Reflection.filterMethods}, through which every {@code
 * getDeclaredMethods}, {@code getMethods}, {@code getDeclaredMethod} and {@code getMethod} of a
 * class first passes, sets {@code SYNCHRONIZED} in the modifiers of the rewritten methods' root
 * {@code Method} objects before the class caches them (every {@code Method} handed out is a copy of
 * one of those).
 *
 * <p>Relocated to {@code java.lang} and defined in {@code java.base} like {@link WeftBridge}, so
 * that the woven JDK method can call it and it can reach {@code jdk.internal.misc.Unsafe} to write
 * the modifiers field (which reflection itself hides). Independent of the recorder: the flags stay
 * right when recording is off. No exception ever leaves it; when anything fails, reflection sees
 * what the JVM says.
 */
public final class WeftReflection {
  private static final int SYNCHRONIZED = Modifier.SYNCHRONIZED;

  /** By defining loader (the bootstrap loader as {@link #BOOT}), class name, then method keys. */
  // A plain map under its own monitor: the JDK's synchronized wrappers are woven (Monitors).
  private static final Map<Object, Map<String, Set<String>>> REWRITTEN = new WeakHashMap<>();

  private static final Object BOOT = new Object();

  private static volatile boolean any;

  /** {@code Unsafe.putInt(Object, long, int)} bound to the unsafe instance; null until needed. */
  private static volatile MethodHandle putInt;

  private static volatile long modifiersOffset = -1;

  private WeftReflection() {}

  /**
   * Notes that the method {@code nameAndDescriptor} of class {@code internalName} (as {@code
   * java/util/Foo}) lost its {@code synchronized} modifier when {@code loader} defined the class.
   */
  public static void rewritten(ClassLoader loader, String internalName, String nameAndDescriptor) {
    Object key = loader == null ? BOOT : loader;
    synchronized (REWRITTEN) {
      REWRITTEN
          .computeIfAbsent(key, k -> new HashMap<>())
          .computeIfAbsent(internalName.replace('/', '.'), k -> new HashSet<>())
          .add(nameAndDescriptor);
    }
    any = true;
  }

  /**
   * Called with the result of {@code Reflection.filterMethods(declaringClass, methods)}; returns it
   * with the {@code synchronized} flag set again on the methods that lost it.
   */
  public static Method[] reflectedMethods(Method[] methods, Class<?> declaringClass) {
    if (!any || methods == null || declaringClass == null) {
      return methods;
    }
    try {
      Set<String> keys = rewrittenOf(declaringClass);
      if (keys != null) {
        for (Method m : methods) {
          if (!Modifier.isSynchronized(m.getModifiers()) && keys.contains(key(m))) {
            setModifiers(m, m.getModifiers() | SYNCHRONIZED);
          }
        }
      }
    } catch (Throwable t) {
      // Reflection then reports what the JVM says: the method without the modifier.
    }
    return methods;
  }

  private static Set<String> rewrittenOf(Class<?> c) {
    ClassLoader loader = c.getClassLoader();
    synchronized (REWRITTEN) {
      Map<String, Set<String>> byClass = REWRITTEN.get(loader == null ? BOOT : loader);
      if (byClass == null) {
        return null;
      }
      Set<String> keys = byClass.get(c.getName());
      return keys == null ? null : new HashSet<>(keys);
    }
  }

  private static String key(Method m) {
    return m.getName()
        + MethodType.methodType(m.getReturnType(), m.getParameterTypes())
            .toMethodDescriptorString();
  }

  /**
   * Writes {@code Method.modifiers}. The field is hidden from reflection and final on newer JDKs,
   * so only {@code jdk.internal.misc.Unsafe} can; this class can reach it because it lives in
   * {@code java.base}. The object is a fresh root, not yet seen by anyone but the class's cache.
   */
  private static void setModifiers(Method m, int modifiers) throws Throwable {
    MethodHandle put = putInt;
    if (put == null) {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
      Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
      modifiersOffset =
          (long)
              unsafeClass
                  .getMethod("objectFieldOffset", Class.class, String.class)
                  .invoke(unsafe, Method.class, "modifiers");
      put =
          lookup
              .findVirtual(
                  unsafeClass,
                  "putInt",
                  MethodType.methodType(void.class, Object.class, long.class, int.class))
              .bindTo(unsafe);
      putInt = put;
    }
    put.invokeExact((Object) m, modifiersOffset, modifiers);
  }
}
