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

  private CarrierStates(ThreadLocal<ThreadState> local, MethodHandle currentCarrier) {
    this.local = local;
    this.currentCarrier = currentCarrier;
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
          base, Set.of(), Map.of("jdk.internal.misc", Set.of(self)), Map.of(), Set.of(), Map.of());
      ThreadLocal<ThreadState> local =
          (ThreadLocal<ThreadState>) carrierLocal.getConstructor().newInstance();
      MethodHandle current =
          MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup())
              .findStatic(
                  Thread.class, "currentCarrierThread", MethodType.methodType(Thread.class));
      return new CarrierStates(local, current);
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

  /** The platform thread carrying the caller. */
  Thread currentCarrier() throws Throwable {
    return (Thread) currentCarrier.invokeExact();
  }
}
