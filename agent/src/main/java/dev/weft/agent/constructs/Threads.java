package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.constructs.CallTargets.Invoke;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.WaitKind;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Thread start, begin and end (family {@code threads}):
 *
 * <ul>
 *   <li>THREAD_CREATE (on the starting thread, with the child's Java id) where application code
 *       calls {@code thread.start()} (before the call), {@code Thread.Builder.start(task)} or
 *       {@code Thread.startVirtualThread(task)} (after the call, which returns the thread); each
 *       call is a wait of kind thread_start.
 *   <li>THREAD_BEGIN at the start of {@code Thread.run()}, {@code ForkJoinWorkerThread.run()} and
 *       {@code run()} in application subclasses of {@code Thread} (unless they call {@code
 *       super.run()}, which is hooked already); THREAD_END when it returns or throws, and for a
 *       fork-join worker before it deregisters from its pool, which may terminate. The recorder
 *       writes them for threads whose start it saw (and for virtual threads), so JDK-internal
 *       threads are not given lifetimes.
 * </ul>
 */
public final class Threads extends ApplicationCallSites {
  private static final String THREAD = "java/lang/Thread";
  private static final Set<String> THREADS = Set.of(THREAD);

  /**
   * JDK classes whose {@code run()} is a thread's lifetime: {@code Thread}'s, and the fork-join
   * worker's, which overrides it without calling {@code super.run()} (without it, the workers of a
   * pool that was shut down would look alive, and idle, until the trace's end).
   */
  private static final String FORK_JOIN_WORKER = "java/util/concurrent/ForkJoinWorkerThread";

  private static final String FORK_JOIN_POOL = "java/util/concurrent/ForkJoinPool";

  private static final Set<String> LIFETIMES = Set.of(THREAD, FORK_JOIN_WORKER);

  private static final Set<String> BUILDERS =
      Set.of(
          "java/lang/Thread$Builder",
          "java/lang/Thread$Builder$OfPlatform",
          "java/lang/Thread$Builder$OfVirtual");
  private static final String STARTED = "(Ljava/lang/Runnable;)Ljava/lang/Thread;";

  // Rows of the table, made by bracket(row, call).
  private static final int START = 0;
  private static final int STARTED_BY = 1;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(THREADS))
          .call(Invoke.INSTANCE, "start()V", START)
          .owners(Owners.exactly(BUILDERS))
          .call("start" + STARTED, STARTED_BY)
          .owners(Owners.exactly(THREAD))
          .call("startVirtualThread" + STARTED, STARTED_BY)
          .build();

  @Override
  public Family family() {
    return Family.THREADS;
  }

  @Override
  public Set<String> jdkClasses() {
    return LIFETIMES;
  }

  @Override
  public List<String> applicationHints() {
    return List.of(THREAD);
  }

  /** Every candidate: a subclass of {@code Thread} has its {@code run()} hooked. */
  @Override
  public boolean wantsApplicationClass(WeaveTarget target) {
    return true;
  }

  @Override
  public byte[] transformJdkClass(WeaveTarget target) {
    return JdkMethods.weave(
        target,
        (mv, access, name, descriptor, version) -> {
          if (name.equals("run") && descriptor.equals("()V")) {
            return lifetime(mv, target, access, name, descriptor, version);
          }
          if (name.equals("exit")
              && descriptor.equals("()V")
              && target.internalName().equals(THREAD)) {
            return exiting(mv, target, access, name, descriptor, version);
          }
          return mv;
        });
  }

  /**
   * {@code WeftBridge.threadExiting()} at the start of {@code Thread.exit()}, which the JVM calls
   * last on every terminating platform thread: there the agent takes the JVM's counts of a thread
   * whose {@code run()} it did not see return (one entered before an attach, {@code main} after
   * {@code main()}), for the analysis's cross-check (JvmCounts). Records no event.
   */
  private static MethodVisitor exiting(
      MethodVisitor next, WeaveTarget target, int access, String name, String descriptor, int v) {
    target.changed();
    return new HookedMethod(next, target.internalName(), access, name, descriptor, v) {
      @Override
      protected boolean shouldHook() {
        return true;
      }

      @Override
      protected void onEnter() {
        Bridge.THREAD_EXITING.call(mv);
      }
    };
  }

  /** THREAD_BEGIN at the start of {@code run()}, THREAD_END when it returns or throws. */
  private static MethodVisitor lifetime(
      MethodVisitor next, WeaveTarget target, int access, String name, String descriptor, int v) {
    target.changed();
    return new HookedMethod(next, target.internalName(), access, name, descriptor, v) {
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

      /**
       * A fork-join worker ends before it deregisters from its pool: the deregistration can
       * terminate the pool, and a program that awaits the termination and exits would otherwise
       * close the trace before the worker's run() returns.
       */
      @Override
      public void visitMethodInsn(
          int opcode, String owner, String method, String desc, boolean isInterface) {
        if (owner.equals(FORK_JOIN_POOL)
            && method.equals("deregisterWorker")
            && target.internalName().equals(FORK_JOIN_WORKER)) {
          Bridge.THREAD_END.call(mv);
        }
        super.visitMethodInsn(opcode, owner, method, desc, isInterface);
      }
    };
  }

  @Override
  public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    ClassVisitor sites = super.visitApplicationClass(next, target);
    return new ClassVisitor(Opcodes.ASM9, sites) {
      private boolean isThread;
      private int version;

      @Override
      public void visit(
          int version,
          int access,
          String name,
          String signature,
          String superName,
          String[] interfaces) {
        this.version = version;
        isThread =
            superName != null
                && SuperTypes.isSubtype(target.loader(), superName, THREADS)
                && !callsSuperRun(target.reader());
        super.visit(version, access, name, signature, superName, interfaces);
      }

      @Override
      public MethodVisitor visitMethod(
          int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
        if (isThread
            && mv != null
            && name.equals("run")
            && descriptor.equals("()V")
            && (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_STATIC)) == 0) {
          return lifetime(mv, target, access, name, descriptor, version);
        }
        return mv;
      }
    };
  }

  /** Whether the class's {@code run()} calls a superclass's {@code run()}. */
  private static boolean callsSuperRun(ClassReader reader) {
    boolean[] found = {false};
    reader.accept(
        new ClassVisitor(Opcodes.ASM9) {
          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] ex) {
            if (!name.equals("run") || !descriptor.equals("()V")) {
              return null;
            }
            return new MethodVisitor(Opcodes.ASM9) {
              @Override
              public void visitMethodInsn(
                  int opcode, String owner, String n, String d, boolean itf) {
                if (opcode == Opcodes.INVOKESPECIAL && n.equals("run") && d.equals("()V")) {
                  found[0] = true;
                }
              }
            };
          }
        },
        ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return found[0];
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case START:
        if (c.target.internalName().equals(CoroutineSchedulers.SCHEDULER)
            || c.target.internalName().equals(QuartzThreadPools.POOL)
            || c.target.internalName().equals(TomcatThreadPools.POOL)
            || c.target.internalName().equals(JBossThreadPools.POOL)
                && c.method.equals(JBossThreadPools.STARTS_WORKERS)
            || c.target.internalName().equals(JettyThreadPools.POOL)
                && c.method.equals(JettyThreadPools.STARTS_WORKERS)) {
          // A coroutine scheduler, a Quartz pool, Tomcat's executor, jboss-threads' or Jetty's pool
          // starting a worker (in an instance method of its own): announced as a member of it.
          return ExecutorTasks.announceWorker(c.region(ConstructKind.THREAD_START, "Thread.start"));
        }
        return beforeStart(c.region(ConstructKind.THREAD_START, "Thread.start"));
      case STARTED_BY:
        return afterStart(c);
      default:
        return null;
    }
  }

  /**
   * {@code WeftBridge.threadCreate(region, thread)} before {@code thread.start()}, and the call
   * itself as a wait of kind thread_start: the JVM creating and starting the thread is time the
   * starting thread spends managing threads (thread_management), not its own work.
   */
  static Bracket beforeStart(int region) {
    return new Waits.Waiting(region, WaitKind.THREAD_START, true) {
      @Override
      protected boolean keepsOperands() {
        return true;
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        BridgeCalls.push(mv, region);
        site.loadReceiver(mv);
        mv.visitTypeInsn(Opcodes.CHECKCAST, THREAD);
        Bridge.THREAD_CREATE.call(mv);
        super.before(mv, site);
      }
    };
  }

  /**
   * {@code Thread.Builder.start(task)} and {@code Thread.startVirtualThread(task)}: the call is a
   * wait of kind thread_start, as {@code thread.start()} is, and {@code
   * WeftBridge.threadCreate(region, thread)} follows it with the thread it returns (there is none
   * before the call), still inside the wait: a platform thread that begins before its announcement
   * is recorded as one started then ({@code EventPath.threadStartsUnderway}).
   */
  private static Bracket afterStart(ApplicationCallSites.Call c) {
    int region = c.region(ConstructKind.THREAD_START, "Thread." + c.name);
    return new Waits.Waiting(region, WaitKind.THREAD_START, true) {
      @Override
      protected void after(MethodVisitor mv, Site site) {
        mv.visitInsn(Opcodes.DUP);
        BridgeCalls.push(mv, region);
        mv.visitInsn(Opcodes.SWAP);
        Bridge.THREAD_CREATE.call(mv);
        super.after(mv, site);
      }

      @Override
      protected void thrown(MethodVisitor mv, Site site) {
        super.after(mv, site); // no thread was started: only the wait ends
      }
    };
  }
}
