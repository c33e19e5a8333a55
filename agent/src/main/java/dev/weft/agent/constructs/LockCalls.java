package dev.weft.agent.constructs;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import org.objectweb.asm.Opcodes;

/**
 * The hooks around lock API calls, shared by the lock families: LOCK_REQUEST before an acquiring
 * call, LOCK_ACQUIRED after it (its timestamp taken inside the lock), LOCK_RELEASED before a
 * releasing call (while the lock is still held). Each names the call's receiver; the recorder maps
 * it to the lock's id and adds {@link LockFlags#SHARED} and {@link LockFlags#REENTRANT} as the
 * object and the thread's holds say.
 *
 * <p>The flags an acquisition's outcome implies are computed from the call's result without
 * branches: {@code tryLock()} returning false sets {@link LockFlags#FAILED}; a timed attempt
 * returning false, or any attempt ending by an exception, sets {@link LockFlags#ABORTED}.
 */
final class LockCalls {
  private static final String REQUEST = "(ILjava/lang/Object;)V";
  private static final String ACQUIRED = "(Ljava/lang/Object;I)V";
  private static final String RELEASED = "(Ljava/lang/Object;)V";

  private LockCalls() {}

  /** How an acquiring call's result says whether it acquired. */
  enum Result {
    /** Returns only once acquired (any result is not about success). */
    ACQUIRES,
    /** Returns true when acquired. */
    TRUE_IF_ACQUIRED,
    /** Returns a stamp, 0 when not acquired. */
    NONZERO_IF_ACQUIRED
  }

  /**
   * Weaves one call of the lock API ({@code Lock} and its implementations' methods of the same
   * name): lock, lockInterruptibly, tryLock, tryLock with timeout, unlock. Returns false for other
   * methods.
   */
  static boolean weaveLockApi(
      CallSites.Method m,
      int opcode,
      String owner,
      String name,
      String descriptor,
      boolean isInterface,
      ConstructKind kind,
      String siteName,
      int flags) {
    CallSites.Hooks hooks;
    boolean protect = false;
    switch (name + descriptor) {
      case "lock()V":
        hooks = acquire(flags, Result.ACQUIRES, 0);
        break;
      case "lockInterruptibly()V":
        hooks = acquire(flags, Result.ACQUIRES, 0);
        protect = true;
        break;
      case "tryLock()Z":
        hooks = acquire(flags, Result.TRUE_IF_ACQUIRED, LockFlags.FAILED);
        break;
      case "tryLock(JLjava/util/concurrent/TimeUnit;)Z":
        hooks = acquire(flags, Result.TRUE_IF_ACQUIRED, LockFlags.ABORTED);
        protect = true;
        break;
      case "unlock()V":
        hooks = release();
        break;
      default:
        return false;
    }
    int region = m.region(kind, siteName + "." + name);
    m.around(opcode, owner, name, descriptor, isInterface, region, protect, hooks);
    return true;
  }

  /**
   * An acquiring call: REQUEST before; after, ACQUIRED with {@code flags}, plus {@code failFlag}
   * when {@code result} says it did not acquire; when it throws, ACQUIRED with {@code flags |
   * ABORTED}.
   */
  static CallSites.Hooks acquire(int flags, Result result, int failFlag) {
    return new CallSites.Hooks() {
      @Override
      public void before(CallSites.Call c) {
        c.push(c.region);
        c.loadReceiver();
        c.bridge("lockRequest", REQUEST);
      }

      @Override
      public void after(CallSites.Call c) {
        switch (result) {
          case ACQUIRES:
            c.loadReceiver();
            c.push(flags);
            break;
          case TRUE_IF_ACQUIRED: // [z] -> [z, flags | (z ^ 1) * failFlag]
            c.mv().visitInsn(Opcodes.DUP);
            failureFlags(c);
            c.loadReceiver();
            c.mv().visitInsn(Opcodes.SWAP);
            break;
          case NONZERO_IF_ACQUIRED: // [stamp] -> [stamp, flags | (stamp == 0) * failFlag]
            c.mv().visitInsn(Opcodes.DUP2);
            c.mv().visitInsn(Opcodes.LCONST_0);
            c.mv().visitInsn(Opcodes.LCMP); // -1, 0 or 1
            c.mv().visitInsn(Opcodes.ICONST_1);
            c.mv().visitInsn(Opcodes.IAND); // 1 when acquired, 0 when not
            failureFlags(c);
            c.loadReceiver();
            c.mv().visitInsn(Opcodes.SWAP);
            break;
          default:
            throw new IllegalStateException(result.name());
        }
        c.bridge("lockAcquired", ACQUIRED);
      }

      /** [acquired (0 or 1)] -> [flags | (acquired ^ 1) * failFlag]. */
      private void failureFlags(CallSites.Call c) {
        c.mv().visitInsn(Opcodes.ICONST_1);
        c.mv().visitInsn(Opcodes.IXOR);
        c.push(failFlag);
        c.mv().visitInsn(Opcodes.IMUL);
        c.push(flags);
        c.mv().visitInsn(Opcodes.IOR);
      }

      @Override
      public void thrown(CallSites.Call c) {
        c.loadReceiver();
        c.push(flags | LockFlags.ABORTED);
        c.bridge("lockAcquired", ACQUIRED);
      }
    };
  }

  /** A releasing call: RELEASED before it, while the lock is still held. */
  static CallSites.Hooks release() {
    return new CallSites.Hooks() {
      @Override
      public void before(CallSites.Call c) {
        c.loadReceiver();
        c.bridge("lockReleased", RELEASED);
      }
    };
  }
}
