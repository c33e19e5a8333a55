package dev.weft.agent.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;

/**
 * Handles on private fields of JDK classes that object describers read (a lock's synchronizer, a
 * barrier's generation). The agent opens their packages to itself at start; where it could not, or
 * a field has another name, the handle is null and the describer does without.
 */
final class JdkFields {
  private JdkFields() {}

  /** A JDK class by name, or null where this JDK has none. */
  static Class<?> classNamed(String name) {
    try {
      return Class.forName(name, false, null);
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  /** A handle on a private field, or null when the field is missing or its package is closed. */
  static VarHandle field(Class<?> owner, String name) {
    if (owner == null) {
      return null;
    }
    try {
      Field f = owner.getDeclaredField(name);
      return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).unreflectVarHandle(f);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
