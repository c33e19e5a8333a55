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
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

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
 * <p>A consumer's take names its queue (WAIT_ENTER_ON), and every call that puts an element into a
 * queue ({@code offer}, {@code add}, {@code put}, {@code transfer}, {@code tryTransfer} and their
 * deque forms, timed or not) writes a NOTIFY of that queue when it put the element while some
 * consumer was in a take: the producer that woke the consumer is its take's waker. While no
 * consumer waits, a put costs one read of a counter. The calls that never block and take an element
 * ({@code poll()}, {@code remove}) are not events. The JDK's own uses of its queues (an executor's
 * workers taking tasks) are not application code and stay unrecorded, as their pool's idle time
 * shows them.
 */
public final class BlockingQueues extends ApplicationCallSites {
  private static final Set<String> QUEUES =
      Set.of(
          "java/util/concurrent/BlockingQueue",
          "java/util/concurrent/BlockingDeque",
          "java/util/concurrent/TransferQueue");

  private static final String TIMED = "JLjava/util/concurrent/TimeUnit;)";
  private static final String E = "Ljava/lang/Object;";

  // Rows of the table, made by bracket(row, call): a take, a timed offer (a wait that may put),
  // a put that may not need to wait, or a put that never waits.
  private static final int TAKE = 0;
  private static final int TIMED_OFFER = 1;
  private static final int PUT = 2;
  private static final int PUT_FIRST = 3;
  private static final int PUT_LAST = 4;
  private static final int TRANSFER = 5;
  private static final int OFFER = 6;
  private static final int ADD = 7;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(QUEUES))
          .call("take()" + E, TAKE)
          .call("put(" + E + ")V", PUT)
          .call("poll(" + TIMED + E, TAKE)
          .call("offer(" + E + TIMED + "Z", TIMED_OFFER)
          .call("takeFirst()" + E, TAKE)
          .call("takeLast()" + E, TAKE)
          .call("putFirst(" + E + ")V", PUT_FIRST)
          .call("putLast(" + E + ")V", PUT_LAST)
          .call("pollFirst(" + TIMED + E, TAKE)
          .call("pollLast(" + TIMED + E, TAKE)
          .call("offerFirst(" + E + TIMED + "Z", TIMED_OFFER)
          .call("offerLast(" + E + TIMED + "Z", TIMED_OFFER)
          .call("transfer(" + E + ")V", TRANSFER)
          .call("tryTransfer(" + E + TIMED + "Z", TIMED_OFFER)
          .call("offer(" + E + ")Z", OFFER)
          .call("offerFirst(" + E + ")Z", OFFER)
          .call("offerLast(" + E + ")Z", OFFER)
          .call("tryTransfer(" + E + ")Z", OFFER)
          .call("add(" + E + ")Z", OFFER)
          .call("addFirst(" + E + ")V", ADD)
          .call("addLast(" + E + ")V", ADD)
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
    int region = Waits.regionNamedByOwner(c, ConstructKind.BLOCKING_QUEUE);
    switch (row) {
      case TAKE:
        return takesTask(c) ? Waits.waiting(region, WaitKind.NEXT_TASK, true) : new Take(region);
      case TIMED_OFFER:
        return new HandOver(region, Waits.waiting(region, WaitKind.QUEUE, true), true);
      case PUT:
        return new HandOver(region, putOrWait(region, WeftBridge.QUEUE_PUT), false);
      case PUT_FIRST:
        return new HandOver(region, putOrWait(region, WeftBridge.QUEUE_PUT_FIRST), false);
      case PUT_LAST:
        return new HandOver(region, putOrWait(region, WeftBridge.QUEUE_PUT_LAST), false);
      case TRANSFER:
        return new HandOver(region, putOrWait(region, WeftBridge.QUEUE_TRANSFER), false);
      case OFFER:
        return new HandOver(region, null, true);
      case ADD:
        return new HandOver(region, null, false);
      default:
        return null;
    }
  }

  /**
   * A consumer's take (or timed poll): WAIT_ENTER_ON naming the queue before, WAIT_EXIT after, also
   * when it throws (an interrupt).
   */
  private static final class Take extends Bracket {
    private final int region;

    Take(int region) {
      this.region = region;
    }

    @Override
    protected boolean keepsOperands() {
      return true;
    }

    @Override
    protected void before(MethodVisitor mv, Site site) {
      BridgeCalls.push(mv, region);
      site.loadReceiver(mv);
      Bridge.QUEUE_TAKE_ENTER.call(mv);
    }

    @Override
    protected void after(MethodVisitor mv, Site site) {
      Bridge.QUEUE_TAKE_EXIT.callWithRegion(mv, region);
    }
  }

  /**
   * A call that puts an element into the queue, around the call's own bracket if it may wait: the
   * time before the call when a consumer is in a take ({@link WeftBridge#queueHandOverStart}, kept
   * in a local), and after it, when it put the element (it returned true, or returned at all for
   * the calls that return nothing), the hand-over ({@link WeftBridge#queueHandedOver}). Nothing
   * when it throws: the element was not put.
   */
  private static final class HandOver extends Bracket {
    private final int region;
    private final Bracket call;
    private final boolean returnsWhetherPut;
    private int since = -1;

    HandOver(int region, Bracket call, boolean returnsWhetherPut) {
      this.region = region;
      this.call = call;
      this.returnsWhetherPut = returnsWhetherPut;
    }

    @Override
    protected boolean keepsOperands() {
      return true;
    }

    @Override
    protected boolean hasShortcut() {
      return call != null && call.hasShortcut();
    }

    @Override
    protected void shortcut(MethodVisitor mv, Site site) {
      call.shortcut(mv, site);
    }

    @Override
    protected void before(MethodVisitor mv, Site site) {
      Bridge.QUEUE_HAND_OVER_START.call(mv);
      since = site.newLocal(Type.LONG_TYPE);
      mv.visitVarInsn(Opcodes.LSTORE, since);
      if (call != null) {
        call.before(mv, site);
      }
    }

    @Override
    protected boolean hasThrown() {
      return call != null && call.hasThrown();
    }

    @Override
    protected void after(MethodVisitor mv, Site site) {
      if (call != null) {
        call.after(mv, site);
      }
      if (returnsWhetherPut) {
        mv.visitInsn(Opcodes.DUP);
      } else {
        mv.visitInsn(Opcodes.ICONST_1);
      }
      BridgeCalls.push(mv, region);
      site.loadReceiver(mv);
      mv.visitVarInsn(Opcodes.LLOAD, since);
      Bridge.QUEUE_HANDED_OVER.call(mv);
    }

    @Override
    protected void thrown(MethodVisitor mv, Site site) {
      if (call != null) {
        call.thrown(mv, site);
      }
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
  private static Bracket putOrWait(int region, int call) {
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
        BridgeCalls.push(mv, region);
        Bridge.QUEUE_PUT_AT_ONCE.call(mv);
      }
    };
  }
}
