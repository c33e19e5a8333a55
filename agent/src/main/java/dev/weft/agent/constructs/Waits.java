package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.WaitKind;
import java.util.List;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Waits called from application code, a {@code waits} family, recorded at their call sites (on JDK
 * 17 {@code Thread.sleep} and {@code Object.wait} are native: there is no JDK bytecode to weave):
 *
 * <ul>
 *   <li>{@code Object.wait}: the monitor is given up and re-taken, so LOCK_RELEASED and WAIT_ENTER
 *       (object_wait) before the call; WAIT_EXIT, LOCK_REQUEST and LOCK_ACQUIRED (AFTER_WAIT) after
 *       it, also when it throws (the monitor is re-taken before InterruptedException is thrown).
 *       The re-acquisition happens inside the call: its wait is part of the WAIT.
 *   <li>{@code notify} and {@code notifyAll}: NOTIFY (object_wait) naming the monitor.
 *   <li>{@code Thread.sleep} and {@code TimeUnit.sleep}: WAIT_ENTER/EXIT (sleep).
 *   <li>{@code LockSupport.park*}: WAIT_ENTER/EXIT (park); {@code LockSupport.unpark}: NOTIFY
 *       (park) naming the thread.
 * </ul>
 *
 * {@code Condition} waits are {@link Conditions}'.
 */
public final class Waits implements ConstructInstrumentation {
  private static final String LOCK_SUPPORT = "java/util/concurrent/locks/LockSupport";
  private static final String WAIT_ENTER = "(II)V";
  private static final String WAIT_EXIT = "(I)V";

  /** Object's wait and notify (any owner: they are final), sleeps, LockSupport. */
  private static final ClassScan.Calls CALLS =
      (owner, name, descriptor) ->
          name.equals("wait")
              || name.equals("notify")
              || name.equals("notifyAll")
              || (name.equals("sleep")
                  && (owner.equals("java/lang/Thread")
                      || owner.equals("java/util/concurrent/TimeUnit")))
              || owner.equals(LOCK_SUPPORT);

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
    return CallSites.visitor(next, target, CALLS, WaitMethod::new);
  }

  private static final class WaitMethod extends CallSites.Method {
    WaitMethod(MethodVisitor next, WeaveTarget target, int access, String name, String desc) {
      super(next, target, access, name, desc);
    }

    @Override
    protected boolean weave(
        int opcode, String owner, String name, String descriptor, boolean isInterface) {
      String call = name + descriptor;
      if (opcode == Opcodes.INVOKEVIRTUAL || opcode == Opcodes.INVOKEINTERFACE) {
        // Object's wait and notify methods are final: these names and descriptors are theirs.
        switch (call) {
          case "wait()V":
          case "wait(J)V":
          case "wait(JI)V":
            around(
                opcode,
                owner,
                name,
                descriptor,
                isInterface,
                region(ConstructKind.OBJECT_WAIT, "Object.wait"),
                true,
                new MonitorWait(WaitKind.OBJECT_WAIT));
            return true;
          case "notify()V":
          case "notifyAll()V":
            around(
                opcode,
                owner,
                name,
                descriptor,
                isInterface,
                region(ConstructKind.NOTIFY, "Object." + name),
                false,
                notifying(WaitKind.OBJECT_WAIT, false));
            return true;
          default:
            break;
        }
      }
      if (owner.equals("java/lang/Thread")
          && opcode == Opcodes.INVOKESTATIC
          && (call.equals("sleep(J)V")
              || call.equals("sleep(JI)V")
              || call.equals("sleep(Ljava/time/Duration;)V"))) {
        around(
            opcode,
            owner,
            name,
            descriptor,
            isInterface,
            region(ConstructKind.SLEEP, "Thread.sleep"),
            true,
            waiting(WaitKind.SLEEP));
        return true;
      }
      if (owner.equals("java/util/concurrent/TimeUnit") && call.equals("sleep(J)V")) {
        around(
            opcode,
            owner,
            name,
            descriptor,
            isInterface,
            region(ConstructKind.SLEEP, "TimeUnit.sleep"),
            true,
            waiting(WaitKind.SLEEP));
        return true;
      }
      if (owner.equals(LOCK_SUPPORT)) {
        if (name.startsWith("park")) {
          around(
              opcode,
              owner,
              name,
              descriptor,
              isInterface,
              region(ConstructKind.PARK, "LockSupport." + name),
              false,
              waiting(WaitKind.PARK));
          return true;
        }
        if (call.equals("unpark(Ljava/lang/Thread;)V")) {
          around(
              opcode,
              owner,
              name,
              descriptor,
              isInterface,
              region(ConstructKind.NOTIFY, "LockSupport.unpark"),
              false,
              notifying(WaitKind.PARK, true));
          return true;
        }
      }
      return false;
    }
  }

  /** WAIT_ENTER before, WAIT_EXIT after (and when the call throws). */
  static CallSites.Hooks waiting(int kind) {
    return new CallSites.Hooks() {
      @Override
      public void before(CallSites.Call c) {
        c.push(c.region);
        c.push(kind);
        c.bridge("waitEnter", WAIT_ENTER);
      }

      @Override
      public void after(CallSites.Call c) {
        c.push(c.region);
        c.bridge("waitExit", WAIT_EXIT);
      }

      @Override
      public void thrown(CallSites.Call c) {
        after(c);
      }
    };
  }

  /** NOTIFY before the call, naming the receiver (or, for a static call, the first argument). */
  static CallSites.Hooks notifying(int kind, boolean firstArgument) {
    return new CallSites.Hooks() {
      @Override
      public void before(CallSites.Call c) {
        c.push(c.region);
        if (firstArgument) {
          c.loadArg(0);
        } else {
          c.loadReceiver();
        }
        c.push(kind);
        c.bridge("notify", "(ILjava/lang/Object;I)V");
      }
    };
  }

  /**
   * A wait that gives up a lock and takes it back ({@code Object.wait}, {@code Condition.await}):
   * LOCK_RELEASED and WAIT_ENTER before, WAIT_EXIT, LOCK_REQUEST and LOCK_ACQUIRED (AFTER_WAIT)
   * after, also when the call throws. The receiver names the lock (a condition's lock for the
   * recorder to find).
   */
  static final class MonitorWait implements CallSites.Hooks {
    private final int kind;

    MonitorWait(int kind) {
      this.kind = kind;
    }

    @Override
    public void before(CallSites.Call c) {
      c.loadReceiver();
      c.bridge("lockReleased", "(Ljava/lang/Object;)V");
      c.push(c.region);
      c.push(kind);
      c.bridge("waitEnter", WAIT_ENTER);
    }

    @Override
    public void after(CallSites.Call c) {
      c.push(c.region);
      c.bridge("waitExit", WAIT_EXIT);
      c.push(c.region);
      c.loadReceiver();
      c.bridge("lockRequest", "(ILjava/lang/Object;)V");
      c.loadReceiver();
      c.push(LockFlags.AFTER_WAIT);
      c.bridge("lockAcquired", "(Ljava/lang/Object;I)V");
    }

    @Override
    public void thrown(CallSites.Call c) {
      after(c);
    }
  }
}
