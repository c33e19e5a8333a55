package dev.weft.agent.constructs;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.Set;
import org.objectweb.asm.MethodVisitor;

/**
 * Calls of {@code BlockingQueue}, {@code BlockingDeque} and {@code TransferQueue} (and of any class
 * implementing them) in application code that may block, a {@code waits} family: WAIT_ENTER/EXIT
 * (queue) around {@code take}, {@code put}, {@code poll} and {@code offer} with a timeout, their
 * deque forms ({@code takeFirst}, {@code putLast}, …) and {@code transfer}/{@code tryTransfer} with
 * a timeout, also when they throw. A consumer waiting for a producer, or a producer for room, waits
 * inside the JDK's queue code, where no call site is woven: without this family the wait was not
 * recorded and counted as execution.
 *
 * <p>A take or timed poll whose element the code casts to a task at once ({@code Runnable job =
 * jobs.take()}) is a worker of a pool of the program's or a library's own waiting for its next
 * task: its wait has the kind next_task, idle time rather than a consumer's wait ({@link
 * TaskQueueTakes}).
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

  // Rows of the table, made by bracket(row, call): a wait, or a put that may not need one.
  private static final int WAIT = 0;
  private static final int PUT = 1;
  private static final int PUT_FIRST = 2;
  private static final int PUT_LAST = 3;
  private static final int TRANSFER = 4;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(QUEUES))
          .call("take()" + E, WAIT)
          .call("put(" + E + ")V", PUT)
          .call("poll(" + TIMED + E, WAIT)
          .call("offer(" + E + TIMED + "Z", WAIT)
          .call("takeFirst()" + E, WAIT)
          .call("takeLast()" + E, WAIT)
          .call("putFirst(" + E + ")V", PUT_FIRST)
          .call("putLast(" + E + ")V", PUT_LAST)
          .call("pollFirst(" + TIMED + E, WAIT)
          .call("pollLast(" + TIMED + E, WAIT)
          .call("offerFirst(" + E + TIMED + "Z", WAIT)
          .call("offerLast(" + E + TIMED + "Z", WAIT)
          .call("transfer(" + E + ")V", TRANSFER)
          .call("tryTransfer(" + E + TIMED + "Z", WAIT)
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
      case WAIT:
        return Waits.namedByOwner(
            c, ConstructKind.BLOCKING_QUEUE, takesTask(c) ? WaitKind.NEXT_TASK : WaitKind.QUEUE);
      case PUT:
        return putOrWait(c, WeftBridge.QUEUE_PUT);
      case PUT_FIRST:
        return putOrWait(c, WeftBridge.QUEUE_PUT_FIRST);
      case PUT_LAST:
        return putOrWait(c, WeftBridge.QUEUE_PUT_LAST);
      case TRANSFER:
        return putOrWait(c, WeftBridge.QUEUE_TRANSFER);
      default:
        return null;
    }
  }

  /** Whether a take or timed poll is a worker's wait for its next task ({@link TaskQueueTakes}). */
  private static boolean takesTask(ApplicationCallSites.Call c) {
    return (c.name.startsWith("take") || c.name.startsWith("poll")) && TaskQueueTakes.takesTask(c);
  }

  /**
   * A put that first offers the element ({@link WeftBridge#queuePutAtOnce}): most puts find room
   * and never wait, and then record nothing (a put and a take that never wait cost 16–23 ns
   * unwoven, and 198–206 ns with a wait recorded around each). Otherwise the put is a wait, as
   * {@code take}.
   */
  private static Bracket putOrWait(ApplicationCallSites.Call c, int call) {
    int region = Waits.regionNamedByOwner(c, ConstructKind.BLOCKING_QUEUE);
    return new Waits.Waiting(region, WaitKind.QUEUE, true) {
      @Override
      protected boolean keepsOperands() {
        return true;
      }

      @Override
      protected boolean hasShortcut() {
        return true;
      }

      @Override
      protected void shortcut(MethodVisitor mv, Site site) {
        site.loadReceiver(mv);
        site.loadArgument(mv, 0);
        BridgeCalls.push(mv, call);
        Bridge.QUEUE_PUT_AT_ONCE.call(mv);
      }
    };
  }
}
