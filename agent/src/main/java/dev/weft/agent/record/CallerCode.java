package dev.weft.agent.record;

import java.lang.StackWalker.StackFrame;
import java.util.Set;

/**
 * Whether a caller's frame runs code the agent wove, whose call sites then record their own events:
 * for the hooked calls whose call sites record after the call ({@code Phaser.arrive}) or record
 * something the recorder's per-thread state cannot tell apart ({@code ForkJoinTask.invoke} from
 * outside a pool, a region whose join wait has no target).
 *
 * <p>A frame runs woven code when its class was woven and the frame is not running the method's
 * code from before the retransformation. Such an <em>obsolete</em> frame has no line number ({@code
 * StackWalker} gives it none), which a woven frame of a class with a line table always has. A frame
 * of a class without a line table for that method cannot be told apart: it counts as woven (nothing
 * is recorded twice, and such an arrival in a running frame is missed).
 */
final class CallerCode {
  private volatile Set<String> woven = Set.of();

  /** The internal names of the classes the agent wove (a live view). */
  void wovenClasses(Set<String> internalNames) {
    woven = internalNames;
  }

  /** Whether {@code caller} runs woven code (see the class comment). */
  boolean runsWovenCode(StackFrame caller) {
    Class<?> c = caller.getDeclaringClass();
    if (!woven.contains(c.getName().replace('.', '/'))) {
      return false; // never woven: at attach skipped as running, or nothing to weave in it
    }
    if (caller.getLineNumber() >= 0) {
      return true;
    }
    return !OriginalLines.of(c).hasLines(caller.getMethodName(), caller.getDescriptor());
  }
}
