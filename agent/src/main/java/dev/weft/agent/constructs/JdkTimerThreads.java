package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.Set;

/**
 * The thread of a {@code java.util.Timer}, a {@code waits} family: WAIT_ENTER/EXIT around the two
 * {@code Object.wait} calls of {@code TimerThread.mainLoop} (the same code on JDK 17 and 25): the
 * wait for a task while none is scheduled (kind next_task) and the wait until the first scheduled
 * task is due (kind timer_due). The timer is a pool of one thread that the JDK runs: between its
 * tasks it is idle, as a pool's worker waiting for its next task or a scheduled executor's worker
 * waiting for a delayed one. This is JDK code, which call-site weaving never reaches, so that time
 * counted as execution: libraries keep timers alive for a whole run (Vert.x's blocked-thread
 * checker wakes once a second), and such a timer's chain could outweigh the program's own on the
 * critical path.
 *
 * <p>The timer's monitor (its queue) is not recorded, so neither is its release and re-taking
 * inside the wait. A timer thread already inside {@code mainLoop} when an agent attaches keeps the
 * code it runs (the loop never returns): its waits come from the JVM's monitor events ({@code
 * RunningMonitors}), under the same regions and kinds.
 */
public final class JdkTimerThreads implements ConstructInstrumentation {
  private static final String TIMER_THREAD = "java/util/TimerThread";

  @Override
  public Family family() {
    return Family.WAITS;
  }

  @Override
  public Set<String> jdkClasses() {
    return Set.of(TIMER_THREAD);
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    return JdkMethods.callSitesIn(
        target,
        "mainLoop",
        "()V",
        (opcode, owner, callName, callDescriptor) -> {
          if (!owner.equals("java/lang/Object")
              || !callName.equals("wait")
              || !(callDescriptor.equals("()V") || callDescriptor.equals("(J)V"))) {
            return null;
          }
          boolean due = callDescriptor.equals("(J)V");
          int region =
              ExecutorTasks.region(
                  target,
                  ConstructKind.OBJECT_WAIT,
                  due ? "Timer.waitUntilDue" : "Timer.waitForTask",
                  "mainLoop");
          return Waits.waiting(region, due ? WaitKind.TIMER_DUE : WaitKind.NEXT_TASK, true);
        });
  }
}
