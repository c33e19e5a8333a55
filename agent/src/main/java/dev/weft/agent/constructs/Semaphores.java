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
 * Calls of {@code Semaphore} in application code, a {@code locks} family: every {@code acquire},
 * {@code acquireUninterruptibly} and {@code tryAcquire} is a SHARED acquisition (a failed try is
 * FAILED, a timed one that times out or an interrupted acquire is ABORTED), every {@code release} a
 * release, whatever the number of permits. Permits have no owner: never re-entrant, released by
 * anyone.
 */
public final class Semaphores implements ConstructInstrumentation {
  private static final String SEMAPHORE = "java/util/concurrent/Semaphore";

  private static final ClassScan.Calls CALLS = (owner, name, descriptor) -> owner.equals(SEMAPHORE);

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
    return CallSites.visitor(next, target, CALLS, SemaphoreMethod::new);
  }

  private static final class SemaphoreMethod extends CallSites.Method {
    SemaphoreMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (!owner.equals(SEMAPHORE)) {
        return false;
      }
      CallSites.Hooks hooks;
      boolean protect = false;
      int shared = LockFlags.SHARED;
      switch (name + descriptor) {
        case "acquire()V":
        case "acquire(I)V":
          hooks = LockCalls.acquire(shared, LockCalls.Result.ACQUIRES, 0);
          protect = true;
          break;
        case "acquireUninterruptibly()V":
        case "acquireUninterruptibly(I)V":
          hooks = LockCalls.acquire(shared, LockCalls.Result.ACQUIRES, 0);
          break;
        case "tryAcquire()Z":
        case "tryAcquire(I)Z":
          hooks = LockCalls.acquire(shared, LockCalls.Result.TRUE_IF_ACQUIRED, LockFlags.FAILED);
          break;
        case "tryAcquire(JLjava/util/concurrent/TimeUnit;)Z":
        case "tryAcquire(IJLjava/util/concurrent/TimeUnit;)Z":
          hooks = LockCalls.acquire(shared, LockCalls.Result.TRUE_IF_ACQUIRED, LockFlags.ABORTED);
          protect = true;
          break;
        case "release()V":
        case "release(I)V":
          hooks = LockCalls.release();
          break;
        default:
          return false;
      }
      int region = region(ConstructKind.SEMAPHORE, "Semaphore." + name);
      around(opcode, owner, name, descriptor, isInterface, region, protect, hooks);
      return true;
    }
  }
}
