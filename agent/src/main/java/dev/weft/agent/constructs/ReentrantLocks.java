package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;

/**
 * Calls of {@code Lock} and {@code ReentrantLock} in application code, a {@code locks} family:
 * {@code lock}, {@code lockInterruptibly}, {@code tryLock} (a failure is FAILED; a timed one that
 * times out or any interrupted attempt is ABORTED) and {@code unlock}. A {@code Lock} may be any
 * implementation: the JDK's (a read/write lock's views, a stamped lock's views, which the recorder
 * maps to their lock) or the user's own, which is then a lock of its own. Calls through a user
 * subclass's static type ({@code MyLock.lock()}) are not recognised.
 */
public final class ReentrantLocks implements ConstructInstrumentation {
  private static final String LOCK = "java/util/concurrent/locks/Lock";
  private static final String REENTRANT_LOCK = "java/util/concurrent/locks/ReentrantLock";

  /** Methods of {@code Lock} or {@code ReentrantLock}, called through either type. */
  private static final ClassScan.Calls CALLS =
      (owner, name, descriptor) -> owner.equals(LOCK) || owner.equals(REENTRANT_LOCK);

  @Override
  public Family family() {
    return Family.LOCKS;
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
    return CallSites.visitor(next, target, CALLS, LockMethod::new);
  }

  private static final class LockMethod extends CallSites.Method {
    LockMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      String site;
      if (owner.equals(LOCK)) {
        site = "Lock";
      } else if (owner.equals(REENTRANT_LOCK)) {
        site = "ReentrantLock";
      } else {
        return false;
      }
      return LockCalls.weaveLockApi(
          this,
          opcode,
          owner,
          name,
          descriptor,
          isInterface,
          ConstructKind.REENTRANT_LOCK,
          site,
          0);
    }
  }
}
