package dev.weft.agentit.apps.sync;

import com.sun.tools.attach.VirtualMachine;

/**
 * Synchronized methods and blocks in a class loaded before the agent attaches ({@link Early}) and
 * in one loaded after ({@link Late}), each called once while another thread holds the monitor for
 * HOLD_MS: {@code AttachSyncApp AGENT_JAR OPTIONS} attaches the agent to this JVM after loading
 * Early, detaches it at the end and runs everything again; {@code AttachSyncApp none} never
 * attaches. The output is the same either way.
 */
public final class AttachSyncApp {
  public static final long HOLD_MS = 50;

  /** Loaded and used before the agent attaches. */
  public static final class Early {
    int count;

    synchronized int method() { // early synchronized method
      return ++count;
    }

    int block() {
      synchronized (this) { // early synchronized block
        return ++count;
      }
    }
  }

  /** First loaded after the agent attached. */
  public static final class Late {
    int count;

    synchronized int method() { // late synchronized method
      return ++count;
    }
  }

  public static void main(String[] args) throws Exception {
    Early early = new Early();
    System.out.println("before: " + early.method() + " " + early.block());
    boolean attach = !args[0].equals("none");
    if (attach) {
      String pid = Long.toString(ProcessHandle.current().pid());
      VirtualMachine vm = VirtualMachine.attach(pid);
      try {
        vm.loadAgent(args[0], args[1]);
      } finally {
        vm.detach();
      }
    }
    Late late = new Late();
    System.out.println("early: " + contended(early, () -> early.method()));
    System.out.println("early block: " + early.block());
    System.out.println("late: " + contended(late, () -> late.method()));
    if (attach) {
      SelfAttach.detach();
      System.err.flush();
    }
    System.out.println("after: " + early.method() + " " + early.block() + " " + late.method());
  }

  interface Call {
    int call();
  }

  /**
   * Runs {@code call} while another thread holds {@code monitor} for HOLD_MS after the caller
   * blocked on it: on a busy host the caller may run long after the holder took the monitor.
   */
  private static int contended(Object monitor, Call call) throws InterruptedException {
    Object started = new Object();
    boolean[] holding = new boolean[1];
    Thread caller = Thread.currentThread();
    Thread holder =
        new Thread(
            () -> {
              synchronized (monitor) {
                synchronized (started) {
                  holding[0] = true;
                  started.notifyAll();
                }
                try {
                  long until = System.nanoTime() + 10_000_000_000L;
                  while (caller.getState() != Thread.State.BLOCKED && System.nanoTime() < until) {
                    Thread.sleep(1);
                  }
                  Thread.sleep(HOLD_MS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            },
            "holder");
    holder.start();
    synchronized (started) {
      while (!holding[0]) {
        started.wait();
      }
    }
    int result = call.call();
    holder.join();
    return result;
  }
}
