package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.constructs.CallTargets.Invoke;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.agent.record.IdleObjectWaits;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.WaitKind;
import org.objectweb.asm.MethodVisitor;

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
 *   <li>{@code LockSupport.park*}: WAIT_ENTER_ON/WAIT_EXIT (park) naming the parking thread, which
 *       an unpark names too (WAIT_ENTER next_task in a Kotlin coroutine scheduler's worker, whose
 *       parks are its idle waits: {@link CoroutineSchedulers}); {@code LockSupport.unpark}: NOTIFY
 *       (park) naming the thread.
 * </ul>
 *
 * {@code Condition} waits are {@link Conditions}'.
 */
public final class Waits extends ApplicationCallSites {
  private static final String OBJECT = "Ljava/lang/Object;";

  // Rows of the table, made by bracket(row, call).
  private static final int OBJECT_WAIT = 0;
  private static final int OBJECT_NOTIFY = 1;
  private static final int THREAD_SLEEP = 2;
  private static final int TIME_UNIT_SLEEP = 3;
  private static final int PARK = 4;
  private static final int UNPARK = 5;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          // Object's wait and notify methods are final: these names and descriptors are theirs.
          .owners(Owners.any())
          .call(Invoke.VIRTUAL, "wait()V", OBJECT_WAIT)
          .call(Invoke.VIRTUAL, "wait(J)V", OBJECT_WAIT)
          .call(Invoke.VIRTUAL, "wait(JI)V", OBJECT_WAIT)
          .call(Invoke.VIRTUAL, "notify()V", OBJECT_NOTIFY)
          .call(Invoke.VIRTUAL, "notifyAll()V", OBJECT_NOTIFY)
          .owners(Owners.exactly("java/lang/Thread"))
          .call(Invoke.STATIC, "sleep(J)V", THREAD_SLEEP)
          .call(Invoke.STATIC, "sleep(JI)V", THREAD_SLEEP)
          .call(Invoke.STATIC, "sleep(Ljava/time/Duration;)V", THREAD_SLEEP)
          .owners(Owners.exactly("java/util/concurrent/TimeUnit"))
          .call("sleep(J)V", TIME_UNIT_SLEEP)
          .owners(Owners.exactly("java/util/concurrent/locks/LockSupport"))
          .call("park()V", PARK)
          .call("park(" + OBJECT + ")V", PARK)
          .call("parkNanos(J)V", PARK)
          .call("parkNanos(" + OBJECT + "J)V", PARK)
          .call("parkUntil(J)V", PARK)
          .call("parkUntil(" + OBJECT + "J)V", PARK)
          .call("unpark(Ljava/lang/Thread;)V", UNPARK)
          .build();

  @Override
  public Family family() {
    return Family.WAITS;
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case OBJECT_WAIT:
        return objectWait(c);
      case OBJECT_NOTIFY:
        return objectNotify(c);
      case THREAD_SLEEP:
        return sleep(c, "Thread.sleep");
      case TIME_UNIT_SLEEP:
        return sleep(c, "TimeUnit.sleep");
      case PARK:
        return park(c);
      case UNPARK:
        return notifying(c.region(ConstructKind.NOTIFY, "LockSupport.unpark"), WaitKind.PARK, true);
      default:
        return null;
    }
  }

  private static Bracket objectWait(ApplicationCallSites.Call c) {
    // A Quartz pool's worker waits on its monitor for its next job: idle, not a wait for a
    // signal; the Quartz scheduler's thread waits on its own for its next trigger's time, as a
    // timer does (QuartzThreadPools).
    int kind = IdleObjectWaits.kind(c.target.binaryName(), c.method, !c.descriptor.equals("()V"));
    return monitorWait(c.region(ConstructKind.OBJECT_WAIT, "Object.wait"), kind);
  }

  private static Bracket objectNotify(ApplicationCallSites.Call c) {
    return notifying(
        c.region(ConstructKind.NOTIFY, "Object." + c.name), WaitKind.OBJECT_WAIT, false);
  }

  private static Bracket sleep(ApplicationCallSites.Call c, String name) {
    return waiting(c.region(ConstructKind.SLEEP, name), WaitKind.SLEEP, true);
  }

  private static Bracket park(ApplicationCallSites.Call c) {
    int region = c.region(ConstructKind.PARK, "LockSupport." + c.name);
    // A coroutine scheduler's worker, or jboss-threads' pool's, parks when it has no task: idle, as
    // a pool's worker waiting for its next task, not a wait for a signal (CoroutineSchedulers,
    // JBossThreadPools).
    if (c.target.internalName().equals(CoroutineSchedulers.WORKER)
        || c.target.internalName().equals(JBossThreadPools.IDLE_PARKS)) {
      return waiting(region, WaitKind.NEXT_TASK, false);
    }
    // Any other park waits for an unpark naming its thread: WAIT_ENTER_ON the parking thread.
    return Brackets.pair(Bridge.PARK_ENTER, Bridge.WAIT_EXIT, region, false);
  }

  /**
   * A wait named {@code <class>.<method>} after the call's owner (a library's own subclass says
   * more than the JDK type), recorded also when the call throws: an interrupt, a timeout's
   * exception, or the subclass's own rule.
   */
  static Bracket namedByOwner(ApplicationCallSites.Call c, ConstructKind kind, int waitKind) {
    return waiting(regionNamedByOwner(c, kind), waitKind, true);
  }

  /** The call's region, named {@code <class>.<method>} after the call's owner. */
  static int regionNamedByOwner(ApplicationCallSites.Call c, ConstructKind kind) {
    String owner = c.owner.substring(c.owner.lastIndexOf('/') + 1);
    return c.region(kind, owner + "." + c.name);
  }

  /** WAIT_ENTER before, WAIT_EXIT after (and, when {@code interruptible}, when the call throws). */
  static Bracket waiting(int region, int kind, boolean interruptible) {
    return new Waiting(region, kind, interruptible);
  }

  /** {@link #waiting}'s bracket, for families that add a shortcut to it. */
  static class Waiting extends Bracket {
    private final int region;
    private final int kind;
    private final boolean interruptible;

    Waiting(int region, int kind, boolean interruptible) {
      this.region = region;
      this.kind = kind;
      this.interruptible = interruptible;
    }

    @Override
    protected boolean hasThrown() {
      return interruptible;
    }

    @Override
    protected void before(MethodVisitor mv, Site site) {
      BridgeCalls.push(mv, region);
      BridgeCalls.push(mv, kind);
      Bridge.WAIT_ENTER.call(mv);
    }

    @Override
    protected void after(MethodVisitor mv, Site site) {
      Bridge.WAIT_EXIT.callWithRegion(mv, region);
    }
  }

  /** NOTIFY before the call, naming the receiver (or, for a static call, the first argument). */
  static Bracket notifying(int region, int kind, boolean firstArgument) {
    return new Bracket() {
      @Override
      protected boolean keepsOperands() {
        return true;
      }

      @Override
      protected boolean hasExit() {
        return false;
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        BridgeCalls.push(mv, region);
        if (firstArgument) {
          site.loadArgument(mv, 0);
        } else {
          site.loadReceiver(mv);
        }
        BridgeCalls.push(mv, kind);
        Bridge.NOTIFY.call(mv);
      }
    };
  }

  /**
   * A wait that gives up a lock and takes it back ({@code Object.wait}, {@code Condition.await}):
   * LOCK_RELEASED and WAIT_ENTER before, WAIT_EXIT, LOCK_REQUEST and LOCK_ACQUIRED (AFTER_WAIT)
   * after, also when the call throws. The receiver names the lock (a condition's lock for the
   * recorder to find).
   */
  static Bracket monitorWait(int region, int kind) {
    return new Bracket() {
      @Override
      protected boolean keepsOperands() {
        return true;
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        site.loadReceiver(mv);
        Bridge.LOCK_RELEASED.call(mv);
        BridgeCalls.push(mv, region);
        BridgeCalls.push(mv, kind);
        Bridge.WAIT_ENTER.call(mv);
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        Bridge.WAIT_EXIT.callWithRegion(mv, region);
        BridgeCalls.push(mv, region);
        site.loadReceiver(mv);
        Bridge.LOCK_REQUEST.call(mv);
        site.loadReceiver(mv);
        BridgeCalls.push(mv, LockFlags.AFTER_WAIT);
        Bridge.LOCK_ACQUIRED.call(mv);
      }
    };
  }
}
