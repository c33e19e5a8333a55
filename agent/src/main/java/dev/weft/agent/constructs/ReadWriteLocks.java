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
 * Calls of a {@code ReentrantReadWriteLock}'s read and write locks through their own types, a
 * {@code locks} family: the {@code Lock} methods as in {@link ReentrantLocks}, read acquisitions
 * marked SHARED. Both locks of one read/write lock get one id (the recorder's), so readers and
 * writers contend on it. Calls through the {@code Lock} interface are {@link ReentrantLocks}' and
 * are marked SHARED by the recorder when the object is a read lock.
 */
public final class ReadWriteLocks implements ConstructInstrumentation {
  private static final String READ_LOCK =
      "java/util/concurrent/locks/ReentrantReadWriteLock$ReadLock";
  private static final String WRITE_LOCK =
      "java/util/concurrent/locks/ReentrantReadWriteLock$WriteLock";

  private static final ClassScan.Calls CALLS =
      (owner, name, descriptor) -> owner.equals(READ_LOCK) || owner.equals(WRITE_LOCK);

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
    return CallSites.visitor(next, target, CALLS, ReadWriteMethod::new);
  }

  private static final class ReadWriteMethod extends CallSites.Method {
    ReadWriteMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      if (owner.equals(READ_LOCK)) {
        return LockCalls.weaveLockApi(
            this,
            opcode,
            owner,
            name,
            descriptor,
            isInterface,
            ConstructKind.READ_WRITE_LOCK,
            "ReadLock",
            LockFlags.SHARED);
      }
      if (owner.equals(WRITE_LOCK)) {
        return LockCalls.weaveLockApi(
            this,
            opcode,
            owner,
            name,
            descriptor,
            isInterface,
            ConstructKind.READ_WRITE_LOCK,
            "WriteLock",
            0);
      }
      return false;
    }
  }
}
