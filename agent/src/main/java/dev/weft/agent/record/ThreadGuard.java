package dev.weft.agent.record;

/**
 * A thread's recording guard, for code outside the recorder that must not be traced while it runs
 * (the class-file transformer, retransformation, the stack walks of callee hooks):
 *
 * <pre>
 *   ThreadGuard g = recorder.guard();
 *   boolean was = g.busy;
 *   g.busy = true;
 *   try { ... } finally { g.busy = was; }
 * </pre>
 *
 * The release is a field write, not a call, because a call may run out of stack: in the host's deep
 * recursion a class load (and so the transformer) can run at the very end of the stack, and a
 * release that overflowed would leave the thread unrecorded for the rest of the run.
 */
public class ThreadGuard {
  /** True while the recorder, or code it must not trace, runs on this thread. */
  public boolean busy;

  ThreadGuard() {}
}
