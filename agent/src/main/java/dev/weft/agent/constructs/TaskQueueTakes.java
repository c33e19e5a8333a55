package dev.weft.agent.constructs;

import dev.weft.agent.weave.WeaveTarget;
import java.lang.ref.WeakReference;
import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * Finds the blocking-queue takes of a class whose element the code takes as a task: the call is
 * directly followed by a cast to {@code Runnable}, {@code Callable} or a class implementing one
 * ({@code Runnable job = jobs.poll(timeout, unit)}). That is the run loop of a pool the JDK does
 * not know (Jetty's {@code QueuedThreadPool}, Netty's event executors, a hand-written worker pool)
 * waiting for its next task: an idle worker, not a consumer held up by a producer.
 *
 * <p>The class is parsed once more, as a tree, only when it calls a queue's take or timed poll (the
 * shared scan found such a call first). A task taken without an immediate cast (kept in an {@code
 * Object}, cast later) is not recognised: its wait stays a queue wait.
 */
final class TaskQueueTakes {
  /** The casts that name a task without looking further. */
  private static final Set<String> TASK_TYPES =
      Set.of(
          "java/lang/Runnable",
          "java/util/concurrent/Callable",
          "java/util/concurrent/RunnableFuture",
          "java/util/concurrent/FutureTask",
          "java/util/concurrent/RunnableScheduledFuture");

  private static final Set<String> TAKES =
      Set.of("take", "poll", "takeFirst", "takeLast", "pollFirst", "pollLast");

  /**
   * The latest class asked about on this thread and its task takes (classes are woven one by one).
   */
  private static final ThreadLocal<Object[]> LAST = new ThreadLocal<>();

  private TaskQueueTakes() {}

  /** Whether the call {@code c} (a queue take or timed poll) takes a task. */
  static boolean takesTask(ApplicationCallSites.Call c) {
    return of(c.target).contains(key(c.method, c.line, c.name));
  }

  @SuppressWarnings("unchecked")
  private static Set<String> of(WeaveTarget target) {
    Object[] last = LAST.get();
    if (last != null && ((WeakReference<?>) last[0]).get() == target) {
      return (Set<String>) last[1];
    }
    Set<String> takes = find(target);
    LAST.set(new Object[] {new WeakReference<>(target), takes});
    return takes;
  }

  private static String key(String method, int line, String call) {
    return method + '#' + line + '#' + call;
  }

  private static Set<String> find(WeaveTarget target) {
    Set<String> takes = new HashSet<>();
    ClassNode node = new ClassNode();
    try {
      target.reader().accept(node, ClassReader.SKIP_FRAMES);
    } catch (RuntimeException e) {
      return takes; // unreadable here: every take stays a queue wait
    }
    for (MethodNode m : node.methods) {
      int line = -1;
      for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
        if (insn instanceof LineNumberNode) {
          line = ((LineNumberNode) insn).line;
        } else if (insn instanceof MethodInsnNode
            && TAKES.contains(((MethodInsnNode) insn).name)
            && ((MethodInsnNode) insn).desc.endsWith(")Ljava/lang/Object;")
            && castsToTask(target, next(insn))) {
          takes.add(key(m.name, line, ((MethodInsnNode) insn).name));
        }
      }
    }
    return takes;
  }

  /** The next instruction that is code (not a label, line number or frame), or null. */
  private static AbstractInsnNode next(AbstractInsnNode insn) {
    AbstractInsnNode n = insn.getNext();
    while (n != null && n.getOpcode() < 0) {
      n = n.getNext();
    }
    return n;
  }

  private static boolean castsToTask(WeaveTarget target, AbstractInsnNode insn) {
    if (insn == null || insn.getOpcode() != Opcodes.CHECKCAST) {
      return false;
    }
    String type = ((TypeInsnNode) insn).desc;
    return TASK_TYPES.contains(type)
        || (!type.startsWith("[") && SuperTypes.isSubtype(target.loader(), type, TASK_TYPES));
  }
}
