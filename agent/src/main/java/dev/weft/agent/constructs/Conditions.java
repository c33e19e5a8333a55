package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;

/**
 * {@code Condition} calls in application code, a {@code waits} family. {@code await} and its
 * variants give up the condition's lock and take it back: LOCK_RELEASED and WAIT_ENTER
 * (condition_await) before, WAIT_EXIT, LOCK_REQUEST and LOCK_ACQUIRED (AFTER_WAIT) after, also when
 * the call throws; the recorder finds the lock of a JDK lock's condition (a user's condition names
 * no lock, and only its WAIT is recorded). {@code signal} and {@code signalAll}: NOTIFY naming the
 * lock.
 */
public final class Conditions implements ConstructInstrumentation {
  private static final String CONDITION = "java/util/concurrent/locks/Condition";
  private static final String CONDITION_OBJECT =
      "java/util/concurrent/locks/AbstractQueuedSynchronizer$ConditionObject";

  private static final ClassScan.Calls CALLS =
      (owner, name, descriptor) -> owner.equals(CONDITION) || owner.equals(CONDITION_OBJECT);

  @Override
  public Family family() {
    return Family.WAITS;
  }

  /** Every class: the shared {@link ClassScan} finds the calls, once for all families. */
  @Override
  public List<String> applicationHints() {
    return List.of("");
  }

  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return CallSites.wants(target, CALLS);
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    return CallSites.visitor(next, target, CALLS, ConditionMethod::new);
  }

  private static final class ConditionMethod extends CallSites.Method {
    ConditionMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (!owner.equals(CONDITION) && !owner.equals(CONDITION_OBJECT)) {
        return false;
      }
      switch (name + descriptor) {
        case "await()V":
        case "awaitUninterruptibly()V":
        case "await(JLjava/util/concurrent/TimeUnit;)Z":
        case "awaitNanos(J)J":
        case "awaitUntil(Ljava/util/Date;)Z":
          around(
              opcode,
              owner,
              name,
              descriptor,
              isInterface,
              region(ConstructKind.CONDITION_AWAIT, "Condition." + name),
              true,
              new Waits.MonitorWait(WaitKind.CONDITION_AWAIT));
          return true;
        case "signal()V":
        case "signalAll()V":
          around(
              opcode,
              owner,
              name,
              descriptor,
              isInterface,
              region(ConstructKind.NOTIFY, "Condition." + name),
              false,
              Waits.notifying(WaitKind.CONDITION_AWAIT, false));
          return true;
        default:
          return false;
      }
    }
  }
}
