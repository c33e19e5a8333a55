package dev.weft.agent.constructs;

import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A method that runs one task, the object in local slot {@code taskLocal} ({@code this} or a
 * parameter): TASK_BEGIN at its start, TASK_END when it returns and when an exception leaves it.
 */
final class TaskRunHook extends HookedMethod {
  private final int taskLocal;

  TaskRunHook(
      MethodVisitor mv,
      WeaveTarget target,
      int access,
      String name,
      String descriptor,
      int version,
      int taskLocal) {
    super(mv, target.internalName(), access, name, descriptor, version);
    this.taskLocal = taskLocal;
  }

  @Override
  protected boolean shouldHook() {
    return true;
  }

  @Override
  protected void onEnter() {
    mv.visitVarInsn(Opcodes.ALOAD, taskLocal);
    Bridge.TASK_BEGIN.call(mv);
  }

  @Override
  protected void onReturn(int opcode) {
    mv.visitVarInsn(Opcodes.ALOAD, taskLocal);
    Bridge.TASK_END.call(mv);
  }

  @Override
  protected void onThrow() {
    onReturn(Opcodes.ATHROW);
  }
}
