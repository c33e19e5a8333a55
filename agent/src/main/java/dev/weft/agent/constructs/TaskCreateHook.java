package dev.weft.agent.constructs;

import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * TASK_CREATE in a library's own pool, from the method that makes or hands over the task: either
 * the task it returns, in the pool {@code this} (Kotlin's {@code CoroutineScheduler.createTask});
 * or, at its start, the task in a parameter, in the pool a field of {@code this} names (Quartz's
 * {@code WorkerThread.run(Runnable)}, whose field {@code tp} is its pool); or, when a constructor
 * returns, {@code this}, in the pool a field of {@code this} names (jboss-threads' {@code
 * EnhancedQueueExecutor.Task}, an inner class of its pool).
 */
final class TaskCreateHook extends HookedMethod {
  private final int region;
  private final String owner;

  /** The task's local slot, or -1 for the returned task. */
  private final int taskLocal;

  /**
   * Whether the task in {@link #taskLocal} is created when the method returns, not at its start.
   */
  private final boolean atReturn;

  /** The field of {@code this} holding the pool (with {@link #taskLocal}), or null. */
  private final String poolField;

  private final String poolDescriptor;

  private TaskCreateHook(
      MethodVisitor mv,
      WeaveTarget target,
      int access,
      String name,
      String descriptor,
      int version,
      int region,
      int taskLocal,
      String poolField,
      String poolDescriptor,
      boolean atReturn) {
    super(mv, target.internalName(), access, name, descriptor, version);
    this.region = region;
    this.owner = target.internalName();
    this.taskLocal = taskLocal;
    this.atReturn = atReturn;
    this.poolField = poolField;
    this.poolDescriptor = poolDescriptor;
  }

  /** The task the method returns, created in the pool {@code this}. */
  static TaskCreateHook ofReturned(
      MethodVisitor mv,
      WeaveTarget target,
      int access,
      String name,
      String descriptor,
      int version,
      int region) {
    return new TaskCreateHook(
        mv, target, access, name, descriptor, version, region, -1, null, null, false);
  }

  /**
   * The task in local slot {@code taskLocal} at the method's start, created in the pool that the
   * field {@code poolField} ({@code poolDescriptor}) of {@code this} holds: the caller makes sure
   * the field exists.
   */
  static TaskCreateHook ofParameter(
      MethodVisitor mv,
      WeaveTarget target,
      int access,
      String name,
      String descriptor,
      int version,
      int region,
      int taskLocal,
      String poolField,
      String poolDescriptor) {
    return new TaskCreateHook(
        mv,
        target,
        access,
        name,
        descriptor,
        version,
        region,
        taskLocal,
        poolField,
        poolDescriptor,
        false);
  }

  /**
   * {@code this}, created (when the constructor returns) in the pool that the field {@code
   * poolField} ({@code poolDescriptor}) of {@code this} holds: the caller makes sure the field
   * exists and is set before the constructor returns.
   */
  static TaskCreateHook ofConstructed(
      MethodVisitor mv,
      WeaveTarget target,
      int access,
      String name,
      String descriptor,
      int version,
      int region,
      String poolField,
      String poolDescriptor) {
    return new TaskCreateHook(
        mv, target, access, name, descriptor, version, region, 0, poolField, poolDescriptor, true);
  }

  @Override
  protected boolean shouldHook() {
    return true;
  }

  @Override
  protected void onEnter() {
    if (taskLocal < 0 || atReturn) {
      return;
    }
    createInField();
  }

  /** TASK_CREATE of the task in {@link #taskLocal}, in the pool of the field {@link #poolField}. */
  private void createInField() {
    BridgeCalls.push(mv, region);
    mv.visitVarInsn(Opcodes.ALOAD, taskLocal);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    mv.visitFieldInsn(Opcodes.GETFIELD, owner, poolField, poolDescriptor);
    Bridge.TASK_CREATE.call(mv);
  }

  @Override
  protected void onReturn(int opcode) {
    if (atReturn) {
      createInField();
      return;
    }
    if (taskLocal >= 0) {
      return;
    }
    // The task is on the stack: taskCreate(region, task, this), the task kept for the return.
    mv.visitInsn(Opcodes.DUP);
    BridgeCalls.push(mv, region);
    mv.visitInsn(Opcodes.SWAP);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    Bridge.TASK_CREATE.call(mv);
  }
}
