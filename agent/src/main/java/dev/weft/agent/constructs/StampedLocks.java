package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;

/**
 * Calls of {@code StampedLock} in application code, a {@code locks} family: {@code writeLock},
 * {@code readLock} (SHARED) and their interruptible and try variants (a zero stamp is FAILED, or
 * ABORTED for a timed try), and {@code unlockWrite}, {@code unlockRead}, {@code unlock}. Optimistic
 * reads are not locks and are not recorded; nor are {@code tryConvertTo*} and {@code tryUnlock*}. A
 * stamped lock has no owner: it is never re-entrant, and any thread may release it.
 */
public final class StampedLocks implements ConstructInstrumentation {
  private static final String STAMPED_LOCK = "java/util/concurrent/locks/StampedLock";
  private static final String TIMED = "(JLjava/util/concurrent/TimeUnit;)J";

  private static final ClassScan.Calls CALLS =
      (owner, name, descriptor) -> owner.equals(STAMPED_LOCK);

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
    return CallSites.visitor(next, target, CALLS, StampedMethod::new);
  }

  private static final class StampedMethod extends CallSites.Method {
    StampedMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (!owner.equals(STAMPED_LOCK)) {
        return false;
      }
      CallSites.Hooks hooks;
      boolean protect = false;
      int shared = name.startsWith("read") || name.startsWith("tryRead") ? LockFlags.SHARED : 0;
      switch (name + descriptor) {
        case "writeLock()J":
        case "readLock()J":
          hooks = LockCalls.acquire(shared, LockCalls.Result.ACQUIRES, 0);
          break;
        case "writeLockInterruptibly()J":
        case "readLockInterruptibly()J":
          hooks = LockCalls.acquire(shared, LockCalls.Result.ACQUIRES, 0);
          protect = true;
          break;
        case "tryWriteLock()J":
        case "tryReadLock()J":
          hooks = LockCalls.acquire(shared, LockCalls.Result.NONZERO_IF_ACQUIRED, LockFlags.FAILED);
          break;
        case "tryWriteLock" + TIMED:
        case "tryReadLock" + TIMED:
          hooks =
              LockCalls.acquire(shared, LockCalls.Result.NONZERO_IF_ACQUIRED, LockFlags.ABORTED);
          protect = true;
          break;
        case "unlockWrite(J)V":
        case "unlockRead(J)V":
        case "unlock(J)V":
          hooks = LockCalls.release();
          break;
        default:
          return false;
      }
      int region = region(ConstructKind.STAMPED_LOCK, "StampedLock." + name);
      around(opcode, owner, name, descriptor, isInterface, region, protect, hooks);
      return true;
    }
  }
}
