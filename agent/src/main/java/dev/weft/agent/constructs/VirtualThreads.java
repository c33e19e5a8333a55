package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.ConstructInstrumentation;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import java.util.Set;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Virtual threads (JDK 21+, family {@code threads}), recorded on their carriers' streams: in {@code
 * VirtualThread.runContinuation}, which the carrier runs for each stretch of a virtual thread, the
 * carrier records VTHREAD_MOUNT just before {@code mount()} and VTHREAD_UNMOUNT just after {@code
 * unmount()}; in between, the recorder writes the virtual thread's own events to the carrier's
 * stream. The virtual thread's {@code run(task)} records THREAD_BEGIN/END.
 *
 * <p>No stream, file or buffer exists per virtual thread, so tens of thousands of them cost one
 * small recorder state each (garbage with the thread) and two events per mount.
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
          if (name.equals("runContinuation") && descriptor.equals("()V")) {
            return JdkMethods.callSites(
                mv,
                target.internalName(),
                access,
                name,
                descriptor,
                version,
                (opcode, owner, callName, callDescriptor) -> {
                  if (!owner.equals(VIRTUAL_THREAD) || !callDescriptor.equals("()V")) {
                    return null;
                  }
                  if (callName.equals("mount")) {
                    target.changed();
                    return MOUNT;
                  }
                  if (callName.equals("unmount")) {
                    target.changed();
                    return UNMOUNT;
                  }
                  return null;
                });
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
                BridgeCalls.call(mv, "threadBegin", "()V");
              }

              @Override
              protected void onReturn(int opcode) {
                BridgeCalls.call(mv, "threadEnd", "()V");
              }

              @Override
              protected void onThrow() {
                BridgeCalls.call(mv, "threadEnd", "()V");
              }
            };
          }
          return mv;
        });
  }

  /** Before {@code mount()}, still on the carrier: {@code WeftBridge.vthreadMount(this)}. */
  private static final Bracket MOUNT =
      new Bracket() {
        @Override
        protected boolean hasExit() {
          return false;
        }

        @Override
        protected void before(MethodVisitor mv, Site site) {
          mv.visitVarInsn(Opcodes.ALOAD, 0);
          BridgeCalls.call(mv, "vthreadMount", "(Ljava/lang/Thread;)V");
        }
      };

  /** After {@code unmount()}, back on the carrier: {@code WeftBridge.vthreadUnmount(this)}. */
  private static final Bracket UNMOUNT =
      new Bracket() {
        @Override
        protected void after(MethodVisitor mv, Site site) {
          mv.visitVarInsn(Opcodes.ALOAD, 0);
          BridgeCalls.call(mv, "vthreadUnmount", "(Ljava/lang/Thread;)V");
        }
      };
}
