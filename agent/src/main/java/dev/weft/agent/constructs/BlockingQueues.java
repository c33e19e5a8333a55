package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.List;
import java.util.Set;

/**
 * Calls of {@code BlockingQueue}, {@code BlockingDeque} and {@code TransferQueue} (and of any class
 * implementing them) in application code that may block, a {@code waits} family: WAIT_ENTER/EXIT
 * (queue) around {@code take}, {@code put}, {@code poll} and {@code offer} with a timeout, their
 * deque forms ({@code takeFirst}, {@code putLast}, …) and {@code transfer}/{@code tryTransfer} with
 * a timeout, also when they throw. A consumer waiting for a producer, or a producer for room, waits
 * inside the JDK's queue code, where no call site is woven: without this family the wait was not
 * recorded and counted as execution.
 *
 * <p>The calls that never block ({@code offer(e)}, {@code poll()}, {@code add}) are not events, so
 * the wait has no waker. The JDK's own uses of its queues (an executor's workers taking tasks) are
 * not application code and stay unrecorded, as their pool's idle time shows them.
 */
public final class BlockingQueues extends ApplicationCallSites {
  private static final Set<String> QUEUES =
      Set.of(
          "java/util/concurrent/BlockingQueue",
          "java/util/concurrent/BlockingDeque",
          "java/util/concurrent/TransferQueue");

  private static final String TIMED = "JLjava/util/concurrent/TimeUnit;)";
  private static final String E = "Ljava/lang/Object;";

  private static final int WAIT = 0;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(QUEUES))
          .call("take()" + E, WAIT)
          .call("put(" + E + ")V", WAIT)
          .call("poll(" + TIMED + E, WAIT)
          .call("offer(" + E + TIMED + "Z", WAIT)
          .call("takeFirst()" + E, WAIT)
          .call("takeLast()" + E, WAIT)
          .call("putFirst(" + E + ")V", WAIT)
          .call("putLast(" + E + ")V", WAIT)
          .call("pollFirst(" + TIMED + E, WAIT)
          .call("pollLast(" + TIMED + E, WAIT)
          .call("offerFirst(" + E + TIMED + "Z", WAIT)
          .call("offerLast(" + E + TIMED + "Z", WAIT)
          .call("transfer(" + E + ")V", WAIT)
          .call("tryTransfer(" + E + TIMED + "Z", WAIT)
          .build();

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
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    if (row != WAIT) {
      return null;
    }
    return Waits.namedByOwner(c, ConstructKind.BLOCKING_QUEUE, WaitKind.QUEUE);
  }
}
