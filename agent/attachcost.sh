#!/usr/bin/env bash
# Measures what the attach-time hooks in the JDK's own wait methods cost a frame that
# was running before the attach (see ATTACH.md), and that the program runs at its original speed
# after the detach. A thread loops, in one method entered before the attach, over
#   lock    - ReentrantLock.lock() + unlock(), uncontended (recorded: 3 events and a stack walk)
#   barrier - CyclicBarrier(1).await(), which trips at once (recorded: 2 events and a stack walk)
#   queue   - LinkedBlockingQueue.offer + poll, whose locks are the JDK's own (a stack walk each,
#             nothing recorded)
#   permit  - Semaphore.acquire() + release(), uncontended (3 events and a stack walk)
#   latch   - CountDownLatch(0).await(), open already (2 events and a stack walk)
#   future  - CompletableFuture.join() of a completed future (2 events and a stack walk)
# before the agent attaches to its JVM, while it records, and after it detached; then the same loop
# once more in a thread started after the detach ("entered afresh"), which runs the restored code.
#
#   agent/attachcost.sh [java]
#   WEFT_OPTS=attach.skip_running=true agent/attachcost.sh [java]   (more agent options)
#
# Needs agent/target/weft-agent.jar (mvn -B -q -pl agent -am package -DskipTests). Prints ns per
# operation, CPU time of the looping thread (CLOCK=wall for elapsed time), median of 9 rounds of
# ROUND operations per phase.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java="${1:-java}"
jar="$here/target/weft-agent.jar"
[[ -f "$jar" ]] || { echo "attachcost.sh: build the agent first" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/classes"
cat > "$work/src/AttachCost.java" <<'JAVA'
import com.sun.tools.attach.VirtualMachine;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;

public class AttachCost {
  static final boolean CPU = !"wall".equals(System.getenv("CLOCK"));
  static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  static final int ROUND = 20_000;
  static final String[] OPS = {"lock", "barrier", "queue", "permit", "latch", "future"};
  // -1 warm-up, 0 before, 1 attached, 2 detached, 3 entered afresh after the detach, 4 end
  static volatile int phase = -1;
  static final double[][][] results = new double[4][OPS.length][9];
  static final int[][] filled = new int[4][OPS.length];

  static long now() {
    return CPU ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }

  /** Entered before the attach, and again after the detach; returns at phase {@code end}. */
  static void loop(int end) throws Exception {
    ReentrantLock lock = new ReentrantLock();
    CyclicBarrier barrier = new CyclicBarrier(1);
    LinkedBlockingQueue<Integer> queue = new LinkedBlockingQueue<>();
    Semaphore semaphore = new Semaphore(1);
    CountDownLatch latch = new CountDownLatch(0);
    CompletableFuture<Integer> future = CompletableFuture.completedFuture(1);
    Integer item = 1;
    long sink = 0;
    while (phase < end) {
      int p = phase;
      for (int op = 0; op < OPS.length; op++) {
        long t0 = now();
        for (int i = 0; i < ROUND; i++) {
          switch (op) {
            case 0:
              lock.lock();
              sink++;
              lock.unlock();
              break;
            case 1:
              sink += barrier.await();
              break;
            case 2:
              queue.offer(item);
              sink += queue.poll();
              break;
            case 3:
              semaphore.acquire();
              sink++;
              semaphore.release();
              break;
            case 4:
              latch.await();
              sink++;
              break;
            default:
              sink += future.join();
              break;
          }
        }
        double ns = (now() - t0) / (double) ROUND;
        if (p >= 0 && p < 4 && p == phase && filled[p][op] < 9) {
          results[p][op][filled[p][op]++] = ns;
        }
      }
    }
    if (sink == 42) {
      System.out.println();
    }
  }

  static boolean full(int p) {
    for (int f : filled[p]) {
      if (f < 9) {
        return false;
      }
    }
    return true;
  }

  static void waitFull(int p) throws InterruptedException {
    phase = p;
    while (!full(p)) {
      Thread.sleep(20);
    }
  }

  static Thread looping(int end) {
    Thread t =
        new Thread(
            () -> {
              try {
                loop(end);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            },
            "looping");
    t.start();
    return t;
  }

  public static void main(String[] args) throws Exception {
    Thread t = looping(3);
    Thread.sleep(2000); // warm-up: compiled
    waitFull(0);
    VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
    try {
      vm.loadAgent(args[0], args[1]);
    } finally {
      vm.detach();
    }
    Thread.sleep(500);
    waitFull(1);
    // The agent runs in a loader of its own; AgentLoader (on the class path) reaches it.
    if (Class.forName("dev.weft.agent.AgentLoader").getMethod("detach").invoke(null) == null) {
      throw new IllegalStateException("not attached");
    }
    Thread.sleep(1000); // recompiled after the restore
    waitFull(2);
    phase = 3;
    t.join();
    phase = -1;
    Thread afresh = looping(4);
    Thread.sleep(2000); // warm-up: compiled
    waitFull(3);
    phase = 4;
    afresh.join();
    String[] names = {"before attach", "attached", "after detach", "afresh after"};
    System.out.printf("%-14s", "");
    for (String op : OPS) {
      System.out.printf(" %10s", op);
    }
    System.out.printf("   (ns/op, %s)%n", CPU ? "CPU" : "wall");
    for (int p = 0; p < 4; p++) {
      System.out.printf("%-14s", names[p]);
      for (int op = 0; op < OPS.length; op++) {
        double[] r = results[p][op].clone();
        Arrays.sort(r);
        System.out.printf(" %10.1f", r[r.length / 2]);
      }
      System.out.println();
    }
  }
}
JAVA
"$java" -version 2>&1 | head -1
javac="$(dirname "$(command -v "$java")")/javac"
[[ -x "$javac" ]] || javac=javac
"$javac" -d "$work/classes" "$work/src/AttachCost.java"
"$java" -Djdk.attach.allowAttachSelf=true -XX:+IgnoreUnrecognizedVMOptions \
  -XX:+EnableDynamicAgentLoading -cp "$work/classes" AttachCost "$jar" "out=$work/trace${WEFT_OPTS:+,$WEFT_OPTS}"
