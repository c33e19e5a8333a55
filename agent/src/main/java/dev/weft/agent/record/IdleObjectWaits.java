package dev.weft.agent.record;

import dev.weft.trace.WaitKind;

/**
 * The {@code Object.wait} calls that are a library's idle waits rather than waits for a signal,
 * told by the class and method that make them, wherever such a wait is seen: woven at its call site
 * ({@code Waits}), open at an attach ({@link OpenWaits}) or reported by the JVM's monitor events
 * ({@link RunningMonitors}). A Quartz pool worker waits in {@code WorkerThread.run} for its next
 * job (next_task); the Quartz scheduler thread waits in {@code QuartzSchedulerThread.run}, with a
 * timeout, for its next trigger's time (timer_due).
 */
public final class IdleObjectWaits {
  /** The Quartz scheduler's thread (binary name). */
  static final String QUARTZ_SCHEDULER_THREAD = "org.quartz.core.QuartzSchedulerThread";

  private IdleObjectWaits() {}

  /**
   * The wait kind of an {@code Object.wait} called in {@code method} of the class {@code className}
   * (binary name), {@code timed} or not: next_task, timer_due, else object_wait.
   */
  public static int kind(String className, String method, boolean timed) {
    if (!method.equals("run")) {
      return WaitKind.OBJECT_WAIT;
    }
    if (className.equals(PoolWorkers.QUARTZ_WORKER)) {
      return WaitKind.NEXT_TASK;
    }
    if (className.equals(QUARTZ_SCHEDULER_THREAD) && timed) {
      return WaitKind.TIMER_DUE;
    }
    return WaitKind.OBJECT_WAIT;
  }
}
