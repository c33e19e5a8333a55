package dev.weft.agent.bridge;

/**
 * The bridge methods of an attached agent's hooks inside the JDK's own wait methods (locks,
 * semaphores, barriers, latches, phasers, AQS {@code Condition}, {@code Thread.join}, futures): a
 * frame that was already running when the agent attached still calls those afresh, so they see its
 * waits (ATTACH.md). Apart from {@link WeftBridge} because they are not events of their own: the
 * recorder turns them into lock, barrier, wait and join-wait events when no woven call site
 * recorded the wait already. Relocated and defined like {@link WeftBridge}; the same rules hold: no
 * exception ever leaves a method.
 */
public final class WeftCalleeBridge {
  private WeftCalleeBridge() {}

  /** See {@link WeftSink#calleeEnter}. */
  public static void calleeEnter(Object target, int operation) {
    WeftSink s = WeftBridge.installed();
    if (s != null) {
      try {
        s.calleeEnter(target, operation);
      } catch (Throwable t) {
        try {
          WeftBridge.fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#calleeReturn}. */
  public static void calleeReturn(int result, Object target, int operation) {
    WeftSink s = WeftBridge.installed();
    if (s != null) {
      try {
        s.calleeReturn(result, target, operation);
      } catch (Throwable t) {
        try {
          WeftBridge.fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }

  /** See {@link WeftSink#calleeThrow}. */
  public static void calleeThrow(Throwable thrown, Object target, int operation) {
    WeftSink s = WeftBridge.installed();
    if (s != null) {
      try {
        s.calleeThrow(thrown, target, operation);
      } catch (Throwable t) {
        try {
          WeftBridge.fault(s, t);
        } catch (Throwable outOfStack) {
          // Nothing may reach the host program.
        }
      }
    }
  }
}
