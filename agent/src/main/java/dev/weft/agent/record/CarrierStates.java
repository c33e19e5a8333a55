package dev.weft.agent.record;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.Set;

/**
 * Access to the carrier thread of a virtual thread (JDK 21+): a {@code CarrierThreadLocal}, whose
 * value seen from a virtual thread is the one of the platform thread carrying it, and {@code
 * Thread.currentCarrierThread()}. Both are JDK internals: the agent exports {@code
 * jdk.internal.misc} to itself (java.lang is already open to it, for the bridge).
 */
final class CarrierStates {
  private final ThreadLocal<ThreadState> local;
  private final MethodHandle currentCarrier;
  private final MethodHandle pin;
  private final MethodHandle unpin;

  private CarrierStates(
      ThreadLocal<ThreadState> local,
      MethodHandle currentCarrier,
      MethodHandle pin,
      MethodHandle unpin) {
    this.local = local;
    this.currentCarrier = currentCarrier;
    this.pin = pin;
    this.unpin = unpin;
  }

  /** The carrier access of this JDK, or null (JDK 17, or the internals are not as expected). */
  @SuppressWarnings("unchecked")
  static CarrierStates create(Instrumentation inst) {
    try {
      Class<?> carrierLocal;
      try {
        carrierLocal = Class.forName("jdk.internal.misc.CarrierThreadLocal", false, null);
      } catch (ClassNotFoundException e) {
        return null; // before JDK 19: no virtual threads
      }
      Module base = Object.class.getModule();
      Module self = CarrierStates.class.getModule();
      inst.redefineModule(
          base,
          Set.of(),
          Map.of("jdk.internal.misc", Set.of(self), "jdk.internal.vm", Set.of(self)),
          Map.of(),
          Set.of(),
          Map.of());
      ThreadLocal<ThreadState> local =
          (ThreadLocal<ThreadState>) carrierLocal.getConstructor().newInstance();
      MethodHandle current =
          MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup())
              .findStatic(
                  Thread.class, "currentCarrierThread", MethodType.methodType(Thread.class));
      MethodHandle pin = null;
      MethodHandle unpin = null;
      try {
        Class<?> continuation = Class.forName("jdk.internal.vm.Continuation", false, null);
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        pin = lookup.findStatic(continuation, "pin", MethodType.methodType(void.class));
        unpin = lookup.findStatic(continuation, "unpin", MethodType.methodType(void.class));
      } catch (ReflectiveOperationException | RuntimeException e) {
        // Not pinned: a virtual thread blocked while opening its carrier's stream may lose events.
      }
      return new CarrierStates(local, current, pin, unpin);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /**
   * The state of the platform thread carrying the caller (the caller's own on a platform thread).
   */
  ThreadState get() {
    return local.get();
  }

  void set(ThreadState state) {
    local.set(state);
  }

  /**
   * Keeps the calling virtual thread on its carrier until {@link #unpin}: while it holds its
   * carrier's stream (opening it, defining the thread), a block on a monitor must not unmount it,
   * or every other virtual thread mounted meanwhile finds the stream taken and loses its events.
   *
   * @return whether it was pinned (then {@link #unpin} must follow)
   */
  boolean pin() {
    if (pin == null) {
      return false;
    }
    try {
      pin.invokeExact();
      return true;
    } catch (Throwable e) {
      return false;
    }
  }

  /** Ends a {@link #pin} that returned true. */
  void unpin() {
    try {
      unpin.invokeExact();
    } catch (Throwable e) {
      // Nothing to undo: the pin failed or is already gone.
    }
  }

  /** The platform thread carrying the caller. */
  Thread currentCarrier() throws Throwable {
    return (Thread) currentCarrier.invokeExact();
  }
}
