package dev.weft.agent.constructs;

import dev.weft.agent.config.AgentOptions;
import dev.weft.agent.config.Family;
import dev.weft.agent.weave.Bridge;
import dev.weft.agent.weave.BridgeCalls;
import dev.weft.agent.weave.HookedMethod;
import dev.weft.agent.weave.WeaveTarget;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Hooks in the JDK's own wait methods for frames that were running when the agent attached (see
 * {@code RunningFrames} in the recorder): at a hooked method's entry {@code calleeEnter(this, op)}
 * (an argument instead of {@code this} where a family says so), at its returns {@code
 * calleeReturn(result, this, op)}, when it throws {@code calleeThrow(t, this, op)}. Woven only by
 * an attached agent ({@link #enableForAttach}): started with the JVM, the agent weaves every call
 * site before it runs, and the hooks would only cost.
 */
public final class CalleeHooks {

  private static volatile boolean attached;

  private CalleeHooks() {}

  /** Called before the transformer is built when the agent is loaded into a running JVM. */
  public static void enableForAttach() {
    attached = true;
  }

  /**
   * What the running-frame hooks that {@code options} enable cover, comma-separated, for the
   * trace's {@code agent.running_frames} attribute: {@code locks} (ReentrantLock), {@code barriers}
   * (CyclicBarrier), {@code waits} (Condition), as recordings before the other constructs were
   * hooked said, then {@code semaphores}, {@code read_write_locks}, {@code stamped_locks}, {@code
   * latches}, {@code phasers}, {@code joins} (Thread.join) and {@code futures} (Future.get,
   * CompletableFuture), then {@code phaser_arrivals} (Phaser.arrive, arriveAndDeregister) and
   * {@code forkjoin} (ForkJoinTask joins and invoke), then {@code thread_starts}, {@code selects}
   * (Selector.select) and {@code accepts} (ServerSocket and ServerSocketChannel accept), then
   * {@code pool_workers} (the tasks of ThreadPoolExecutor workers whose loop ran before the
   * attach).
   */
  public static String families(AgentOptions options) {
    StringJoiner out = new StringJoiner(",");
    for (Family f : List.of(Family.LOCKS, Family.BARRIERS, Family.WAITS)) {
      if (options.enabled(f)) {
        out.add(f.id());
      }
    }
    if (options.enabled(Family.LOCKS)) {
      out.add("semaphores").add("read_write_locks").add("stamped_locks");
    }
    if (options.enabled(Family.BARRIERS)) {
      out.add("latches").add("phasers");
    }
    for (Family f : List.of(Family.JOINS, Family.FUTURES)) {
      if (options.enabled(f)) {
        out.add(f.id());
      }
    }
    if (options.enabled(Family.BARRIERS)) {
      out.add("phaser_arrivals");
    }
    if (options.enabled(Family.FORKJOIN)) {
      out.add(Family.FORKJOIN.id());
    }
    if (options.enabled(Family.THREADS)) {
      out.add("thread_starts");
    }
    if (options.enabled(Family.NETWORK)) {
      out.add("selects").add("accepts");
    }
    if (options.enabled(Family.EXECUTORS)) {
      out.add("pool_workers");
    }
    return out.toString();
  }

  /** The classes to hook: {@code classes} when attached, none otherwise. */
  static Set<String> whenAttached(Set<String> classes) {
    return attached ? classes : Set.of();
  }

  /**
   * Hooks the methods of {@code target} named in {@code operations} ({@code name + descriptor} to
   * the operation code); {@code entryOnly} operations get no return and throw hooks. The hooks
   * report {@code this} as the target, or for the operations in {@code targetSlots} the value of
   * that local slot (an argument).
   */
  static byte[] weave(
      WeaveTarget target,
      Map<String, Integer> operations,
      Set<Integer> entryOnly,
      Map<Integer, Integer> targetSlots) {
    return JdkMethods.weave(target, hooks(target, operations, entryOnly, targetSlots));
  }

  /**
   * As {@link #weave}, for the methods of a class woven by a family's own visitor (an application
   * class, e.g. a library's copy of a JDK pool), when attached; otherwise nothing is hooked.
   */
  static JdkMethods.Weaver hooks(
      WeaveTarget target,
      Map<String, Integer> operations,
      Set<Integer> entryOnly,
      Map<Integer, Integer> targetSlots) {
    return (mv, access, name, descriptor, version) -> {
      Integer op = attached ? operations.get(name + descriptor) : null;
      if (op == null || (access & Opcodes.ACC_STATIC) != 0) {
        return mv;
      }
      target.changed();
      return new Hook(
          mv,
          target.internalName(),
          access,
          name,
          descriptor,
          version,
          op,
          entryOnly,
          targetSlots.getOrDefault(op, 0));
    };
  }

  private static final class Hook extends HookedMethod {
    private final int op;
    private final boolean exits;

    /** The local slot reported as the target: 0 ({@code this}) or an argument's. */
    private final int targetSlot;

    Hook(
        MethodVisitor next,
        String owner,
        int access,
        String name,
        String descriptor,
        int version,
        int op,
        Set<Integer> entryOnly,
        int targetSlot) {
      super(next, owner, access, name, descriptor, version);
      this.op = op;
      this.exits = !entryOnly.contains(op);
      this.targetSlot = targetSlot;
    }

    @Override
    protected boolean shouldHook() {
      return true;
    }

    @Override
    protected void onEnter() {
      mv.visitVarInsn(Opcodes.ALOAD, targetSlot);
      BridgeCalls.push(mv, op);
      Bridge.CALLEE_ENTER.call(mv);
    }

    @Override
    protected void onReturn(int opcode) {
      if (!exits) {
        return;
      }
      if (opcode == Opcodes.IRETURN) {
        mv.visitInsn(Opcodes.DUP); // an int or boolean result, reported
      } else if (opcode == Opcodes.LRETURN) {
        // A long (a stamp, awaitNanos' time left): reported as whether it is non-zero.
        mv.visitInsn(Opcodes.DUP2);
        mv.visitInsn(Opcodes.LCONST_0);
        mv.visitInsn(Opcodes.LCMP);
      } else {
        mv.visitInsn(Opcodes.ICONST_0); // void: nothing to report
      }
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      BridgeCalls.push(mv, op);
      Bridge.CALLEE_RETURN.call(mv);
    }

    @Override
    protected void onThrow() {
      if (!exits) {
        return;
      }
      mv.visitInsn(Opcodes.DUP);
      mv.visitVarInsn(Opcodes.ALOAD, 0);
      BridgeCalls.push(mv, op);
      Bridge.CALLEE_THROW.call(mv);
    }
  }
}
