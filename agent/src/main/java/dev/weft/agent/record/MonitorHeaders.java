package dev.weft.agent.record;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.Set;

/**
 * Whether an object's monitor is free, read from the object's header (HotSpot only): the recorder
 * gives an acquisition that found its lock free one timestamp for request and acquisition.
 *
 * <p>HotSpot keeps a monitor's state in the low bits of the object's mark word: {@code 001} for an
 * object nobody has locked, anything else for one that is locked (stack-locked, fast-locked,
 * biased) or has an inflated monitor (which may have waiters or an owner). Only {@code 001} counts
 * as free, so every doubt takes the careful path. The header is read with {@code
 * jdk.internal.misc.Unsafe}, which the agent exports to itself; on another JVM, or when the export
 * or the lookup fails, no monitor is ever seen free.
 */
final class MonitorHeaders {
  private MonitorHeaders() {}

  /**
   * Makes the header readable (idempotent); true when {@link #unlocked} can answer. Must run before
   * anything else of this class is used.
   */
  static boolean open(Instrumentation inst) {
    if (inst == null || !isHotSpot()) {
      return false;
    }
    try {
      Class<?> unsafe = Class.forName("jdk.internal.misc.Unsafe", false, null);
      Module self = MonitorHeaders.class.getModule();
      if (!unsafe.getModule().isExported("jdk.internal.misc", self)) {
        inst.redefineModule(
            unsafe.getModule(),
            Set.of(),
            Map.of("jdk.internal.misc", Set.of(self)),
            Map.of(),
            Set.of(),
            Map.of());
      }
    } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
      return false;
    }
    return Reader.MARK != null;
  }

  private static boolean isHotSpot() {
    String vm = System.getProperty("java.vm.name", "");
    return vm.contains("HotSpot") || vm.contains("OpenJDK");
  }

  /**
   * True when nobody holds {@code o}'s monitor and it has no inflated monitor (so no waiters). Only
   * after {@link #open} returned true.
   */
  static boolean unlocked(Object o) {
    try {
      return ((long) Reader.MARK.invokeExact(o, 0L) & 7) == 1;
    } catch (Throwable e) {
      return false;
    }
  }

  /** Holds the header reader; initialised at its first use, after the export. */
  private static final class Reader {
    /** {@code Unsafe.getLong(Object, long)} bound to the Unsafe instance; null if unavailable. */
    static final MethodHandle MARK = markReader();

    private static MethodHandle markReader() {
      try {
        Class<?> c = Class.forName("jdk.internal.misc.Unsafe", false, null);
        Object unsafe = c.getMethod("getUnsafe").invoke(null);
        MethodHandle get =
            MethodHandles.lookup()
                .findVirtual(
                    c, "getLong", MethodType.methodType(long.class, Object.class, long.class))
                .bindTo(unsafe);
        // The mark word of a fresh object is "unlocked" (001): check the layout is as expected.
        long mark = (long) get.invokeExact((Object) new Object(), 0L);
        return (mark & 7) == 1 ? get : null;
      } catch (Throwable e) {
        return null;
      }
    }
  }
}
