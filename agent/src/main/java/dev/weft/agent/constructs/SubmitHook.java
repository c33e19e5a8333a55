package dev.weft.agent.constructs;

import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A library pool's method that queues the task in its first parameter in the pool {@code this}
 * (Jetty's {@code QueuedThreadPool.execute}, Netty's {@code SingleThreadEventExecutor.addTask}):
 * TASK_CREATE at its start; when it throws (the queue is full, the pool is stopping) the task was
 * not queued and is withdrawn, so that it is not read as waiting to the end of the run.
 */
final class SubmitHook extends HookedMethod {
  private final int region;

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
  }

  @Override
  protected boolean shouldHook() {
    return true;
  }

  @Override
  protected void onEnter() {
    BridgeCalls.push(mv, region);
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    mv.visitVarInsn(Opcodes.ALOAD, 0);
    Bridge.TASK_CREATE.call(mv);
  }

  @Override
  protected void onThrow() {
    mv.visitVarInsn(Opcodes.ALOAD, 1);
    Bridge.TASK_WITHDRAWN.call(mv);
  }
}
