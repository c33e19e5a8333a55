package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import java.util.Set;
import org.objectweb.asm.Opcodes;

/**
 * Virtual threads (JDK 21+, family {@code threads}): THREAD_BEGIN/END at the start and end of
 * {@code VirtualThread.run(task)}, on the virtual thread; VTHREAD_MOUNT at the entry of {@code
 * VirtualThread.mount()} and VTHREAD_UNMOUNT at the return of {@code unmount()}, on the carrier
 * (both are called by {@code runContinuation()} around the continuation's run, JDK 21 to 25, and
 * there the current thread is the carrier). The recorder writes a virtual thread's events to its
 * carrier's stream between those records (see the recorder); the scheduler's own fork-join tasks,
 * one per stretch of a virtual thread, are not recorded.
 */
public final class VirtualThreads implements ConstructInstrumentation {
  private static final String VIRTUAL_THREAD = "java/lang/VirtualThread";

  @Override
  public Family family() {
    return Family.THREADS;
  }

  @Override
  public Set<String> jdkClasses() {
    return Set.of(VIRTUAL_THREAD);
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if (name.equals("mount") && descriptor.equals("()V")) {
            target.changed();
            return JdkMethods.atEntry(
                mv,
                m -> {
                  m.visitVarInsn(Opcodes.ALOAD, 0);
                  Bridge.VTHREAD_MOUNT.call(m);
                });
          }
          if (name.equals("unmount") && descriptor.equals("()V")) {
            target.changed();
            return new HookedMethod(mv, target.internalName(), access, name, descriptor, version) {
              @Override
              protected boolean shouldHook() {
                return true;
              }

              @Override
              protected void onReturn(int opcode) {
                mv.visitVarInsn(Opcodes.ALOAD, 0);
                Bridge.VTHREAD_UNMOUNT.call(mv);
              }
            };
          }
          if (name.equals("run") && descriptor.equals("(Ljava/lang/Runnable;)V")) {
            target.changed();
            return new HookedMethod(mv, target.internalName(), access, name, descriptor, version) {
              @Override
              protected boolean shouldHook() {
                return true;
              }

              @Override
              protected void onEnter() {
                Bridge.THREAD_BEGIN.call(mv);
              }

              @Override
              protected void onReturn(int opcode) {
                Bridge.THREAD_END.call(mv);
              }

              @Override
              protected void onThrow() {
                Bridge.THREAD_END.call(mv);
              }
            };
          }
          return mv;
        });
  }
}
