package dev.weft.agent.constructs;

import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A library pool's method that queues the task in its first parameter in the pool {@code this}
 * (Jetty's {@code QueuedThreadPool.execute}, Netty's {@code SingleThreadEventExecutor.addTask}):
 * TASK_CREATE at its start; when it throws (the queue is full, the pool is stopping) the task was
 * not queued and is withdrawn, so that it is not read as waiting to the end of the run. A marker
 * the pool queues to wake its thread, never run (Netty's {@code WAKEUP_TASK}), is no task: it is
 * named by a static field of the pool's class ({@link #unless}).
 */
final class SubmitHook extends HookedMethod {
  private final int region;
  private final String owner;

  /** The static {@code Runnable} field of the pool's class whose value is no task, or null. */
  private String marker;

  SubmitHook(
      MethodVisitor mv,
      WeaveTarget target,
      int access,
      String name,
      String descriptor,
      int version,
      int region) {
    super(mv, target.internalName(), access, name, descriptor, version);
    this.region = region;
    this.owner = target.internalName();
  }

  /**
   * Leaves out the task that is the value of static field {@code field} ({@code Runnable}) of the
   * woven class, declared or inherited: the caller makes sure it resolves.
   */
  SubmitHook unless(String field) {
    this.marker = field;
    return this;
  }

  @Override
  protected boolean shouldHook() {
    return true;
  }

  @Override
  protected void onEnter() {
    Label skip = skipMarker();
    BridgeCalls.push(mv, region);
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    Bridge.TASK_CREATE.call(mv);
    endSkip(skip);
  }

  @Override
  protected void onThrow() {
    Label skip = skipMarker();
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    Bridge.TASK_WITHDRAWN.call(mv);
    endSkip(skip, "java/lang/Throwable");
  }

  /** {@code if (task != MARKER) {…}}: the label to jump to, or null without a marker. */
  private Label skipMarker() {
    if (marker == null) {
      return null;
    }
    Label skip = new Label();
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitFieldInsn(Opcodes.GETSTATIC, owner, marker, "Ljava/lang/Runnable;");
    mv.visitJumpInsn(Opcodes.IF_ACMPEQ, skip);
    return skip;
  }

  private void endSkip(Label skip, Object... stack) {
    if (skip != null) {
      mv.visitLabel(skip);
      parameterFrame(stack);
    }
  }
}
