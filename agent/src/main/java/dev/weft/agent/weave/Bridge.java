package dev.weft.agent.weave;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The methods of {@code WeftBridge} (and {@code WeftCalleeBridge}) that woven code calls, one
 * constant per method: its owner, name and descriptor, so that weaving code names a bridge method
 * once and a typo cannot reach a class file. {@code BridgeTest} checks by reflection that the
 * constants and the bridge's public static methods match one to one (the sink's management, {@code
 * install} and {@code installed}, excepted).
 *
 * <p>The owner is {@link BridgeCalls#OWNER} (or {@link BridgeCalls#CALLEE_OWNER}), relocated to
 * {@code java/lang} in the shaded jar. Every method is static and never throws, so a call can go
 * anywhere an instruction may go without a new exception handler; its arguments must be on the
 * stack in descriptor order.
 */
public enum Bridge {
  ENTER("enter", "(I)V"),
  EXIT("exit", "(I)V"),
  USER_REGION_ENTER("userRegionEnter", "(I)V"),
  USER_REGION_ENTER_NAMED("userRegionEnter", "(Ljava/lang/String;I)V"),
  USER_REGION_EXIT("userRegionExit", "()V"),
  MEASUREMENT_ON("measurementOn", "()V"),
  MEASUREMENT_OFF("measurementOff", "()V"),
  IS_RECORDING("isRecording", "()Z"),
  FORK("fork", "(ILjava/lang/Object;I)V"),
  JOIN("join", "(ILjava/lang/Object;)V"),
  TASK_CREATE("taskCreate", "(ILjava/lang/Object;Ljava/lang/Object;)V"),
  TASK_SCHEDULED("taskScheduled", "(IILjava/lang/Object;Ljava/lang/Object;)V"),
  TASK_WITHDRAWN("taskWithdrawn", "(Ljava/lang/Object;)V"),
  TASKS_WITHDRAWN("tasksWithdrawn", "(Ljava/lang/Object;)V"),
  TASK_REMOVED("taskRemoved", "(ZLjava/lang/Object;)V"),
  TASK_REJECTED("taskRejected", "(Ljava/lang/Object;Ljava/lang/Object;)V"),
  TASK_BEGIN("taskBegin", "(Ljava/lang/Object;)V"),
  TASK_END("taskEnd", "(Ljava/lang/Object;)V"),
  TASK_SUMMARY("taskSummary", "(ILjava/lang/Object;JJ)V"),
  JOIN_WAIT_ENTER("joinWaitEnter", "(ILjava/lang/Object;)V"),
  JOIN_WAIT_EXIT("joinWaitExit", "(I)V"),
  JOIN_BLOCKED_ENTER("joinBlockedEnter", "(ILjava/lang/Object;)V"),
  JOIN_BLOCKED_EXIT("joinBlockedExit", "(I)V"),
  HELP_ENTER("helpEnter", "(I)V"),
  HELP_EXIT("helpExit", "(I)V"),
  BARRIER_ENTER("barrierEnter", "(ILjava/lang/Object;J)V"),
  BARRIER_EXIT("barrierExit", "(ILjava/lang/Object;JI)V"),
  LOCK_REQUEST("lockRequest", "(ILjava/lang/Object;)V"),
  LOCK_ACQUIRED("lockAcquired", "(Ljava/lang/Object;I)V"),
  LOCK_FIRST_TRY("lockFirstTry", "(ILjava/lang/Object;Z)Z"),
  LOCK_RELEASED("lockReleased", "(Ljava/lang/Object;)V"),
  QUEUE_PUT_AT_ONCE("queuePutAtOnce", "(Ljava/lang/Object;Ljava/lang/Object;II)Z"),
  QUEUE_TAKE_ENTER("queueTakeEnter", "(ILjava/lang/Object;)V"),
  QUEUE_TAKE_EXIT("queueTakeExit", "(I)V"),
  QUEUE_HAND_OVER_START("queueHandOverStart", "()J"),
  QUEUE_HANDED_OVER("queueHandedOver", "(ZILjava/lang/Object;J)V"),
  WAIT_ENTER("waitEnter", "(II)V"),
  PARK_ENTER("parkEnter", "(I)V"),
  WAIT_EXIT("waitExit", "(I)V"),
  NOTIFY("notify", "(ILjava/lang/Object;I)V"),
  SPIN_ENTER("spinEnter", "(I)V"),
  SPIN_EXIT("spinExit", "(I)V"),
  THREAD_CREATE("threadCreate", "(ILjava/lang/Thread;)V"),
  POOL_THREAD_CREATE("poolThreadCreate", "(ILjava/lang/Thread;Ljava/lang/Object;)V"),
  THREAD_BEGIN("threadBegin", "()V"),
  THREAD_END("threadEnd", "()V"),
  THREAD_EXITING("threadExiting", "()V"),
  VTHREAD_MOUNT("vthreadMount", "(Ljava/lang/Thread;)V"),
  VTHREAD_UNMOUNT("vthreadUnmount", "(Ljava/lang/Thread;)V"),
  CALLEE_ENTER(BridgeCalls.CALLEE_OWNER, "calleeEnter", "(Ljava/lang/Object;I)V"),
  CALLEE_RETURN(BridgeCalls.CALLEE_OWNER, "calleeReturn", "(ILjava/lang/Object;I)V"),
  CALLEE_THROW(
      BridgeCalls.CALLEE_OWNER, "calleeThrow", "(Ljava/lang/Throwable;Ljava/lang/Object;I)V");

  private final String owner;
  private final String method;
  private final String descriptor;

  Bridge(String method, String descriptor) {
    this(BridgeCalls.OWNER, method, descriptor);
  }

  Bridge(String owner, String method, String descriptor) {
    this.owner = owner;
    this.method = method;
    this.descriptor = descriptor;
  }

  /** The internal name of the bridge class holding the method. */
  public String owner() {
    return owner;
  }

  /** The method's name in its bridge class. */
  public String methodName() {
    return method;
  }

  /** The method's descriptor. */
  public String descriptor() {
    return descriptor;
  }

  /** Emits the call; its arguments are on the stack. */
  public void call(MethodVisitor mv) {
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, owner, method, descriptor, false);
  }

  /** Pushes {@code region} and emits the call: for the methods taking only a region id. */
  public void callWithRegion(MethodVisitor mv, int region) {
    if (!descriptor.equals("(I)V")) {
      throw new IllegalStateException(method + descriptor + " takes more than a region");
    }
    BridgeCalls.push(mv, region);
    call(mv);
  }
}
