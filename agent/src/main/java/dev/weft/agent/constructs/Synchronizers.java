package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.Set;

/**
 * Acquires of synchronizers that programs and libraries build themselves on {@code
 * AbstractQueuedSynchronizer} or {@code AbstractQueuedLongSynchronizer} (a database's own latch, a
 * gate, a mutex), a {@code waits} family: WAIT_ENTER/EXIT (synchronizer) around every {@code
 * acquire*} and {@code tryAcquire*Nanos} call whose receiver is such a subclass, also when it
 * throws. The JDK's own locks, semaphores and latches never reach these calls from application code
 * (their {@code Sync} classes are private), so they are not counted twice; without this family such
 * a wait parks inside the JDK's code, where no call site is woven, and would be invisible.
 *
 * <p>What the subclass waits for is its own rule, so the wait is recorded with its time and place
 * but no waker: its {@code release*} calls are not events.
 */
public final class Synchronizers extends ApplicationCallSites {
  private static final Set<String> SYNCHRONIZERS =
      Set.of(
          "java/util/concurrent/locks/AbstractQueuedSynchronizer",
          "java/util/concurrent/locks/AbstractQueuedLongSynchronizer");

  private static final int ACQUIRE = 0;

  private static final CallTargets TARGETS = table();

  private static CallTargets table() {
    CallTargets.Builder b = CallTargets.builder().owners(Owners.orSubtypes(SYNCHRONIZERS));
    for (String arg : new String[] {"I", "J"}) { // the int synchronizer's and the long one's
      b.call("acquire(" + arg + ")V", ACQUIRE)
          .call("acquireInterruptibly(" + arg + ")V", ACQUIRE)
          .call("tryAcquireNanos(" + arg + "J)Z", ACQUIRE)
          .call("acquireShared(" + arg + ")V", ACQUIRE)
          .call("acquireSharedInterruptibly(" + arg + ")V", ACQUIRE)
          .call("tryAcquireSharedNanos(" + arg + "J)Z", ACQUIRE);
    }
    return b.build();
  }

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
    if (row != ACQUIRE) {
      return null;
    }
    return Waits.namedByOwner(c, ConstructKind.SYNCHRONIZER, WaitKind.SYNCHRONIZER);
  }
}
