package dev.weft.agentit.apps.sync;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Waits that are already in progress when the agent attaches: {@code OpenWaitsApp LOG AGENT_JAR
 * OPTIONS} starts one thread per kind of wait, each of which waits once, from before the attach: at
 * a barrier main is the other party of, for a lock and a monitor main holds, in {@code Object.wait}
 * until main notifies, in {@code Thread.sleep}, in {@code Thread.join} of the sleeping thread, and
 * (the {@code forever} thread) at a latch main opens only after the detach. Main attaches the agent
 * to this JVM, then ends the waits one by one, STEP_MS apart, and detaches it once the sleep is
 * over. Each thread logs its wait's start and end ({@code System.nanoTime}) to LOG as {@code thread
 * start end}; the lines {@code attached T} and {@code detached T} give the moments loadAgent
 * returned and detach was called ({@code detachReturned T}: when it returned), and {@code released
 * THREAD T} when main was about to end that thread's wait, and {@code returned objectWait T} when
 * each {@code Object.wait} call returned (the language allows spurious wake-ups).
 */
public final class OpenWaitsApp {
  public static final long STEP_MS = 300;

  /**
   * How long the sleeping thread sleeps from before the attach: longer than the attach takes on a
   * busy host (seconds), so that it is still asleep when the recording starts.
   */
  public static final long SLEEP_MS = 6000;

  private static final CyclicBarrier BARRIER = new CyclicBarrier(2);
  private static final ReentrantLock LOCK = new ReentrantLock();
  private static final Object MONITOR = new Object();
  private static final Object WAIT_OBJECT = new Object();
  private static final CountDownLatch FOREVER = new CountDownLatch(1);
  private static boolean notified;

  /** When each {@code Object.wait} call returned: more than one means a spurious wake-up. */
  private static final List<Long> OBJECT_WAIT_RETURNS = new ArrayList<>();

  private static int monitorEntries;

  /** One thread that waits once, and logs it. */
  private static final class Waiter extends Thread {
    private final Wait wait;
    long start;
    long end;

    Waiter(String name, Wait wait) {
      super(name);
      this.wait = wait;
    }

    @Override
    public void run() {
      try {
        start = System.nanoTime();
        wait.run();
        end = System.nanoTime();
      } catch (InterruptedException | BrokenBarrierException e) {
        end = -1;
      }
    }
  }

  private interface Wait {
    void run() throws InterruptedException, BrokenBarrierException;
  }

  private static void barrier() throws InterruptedException, BrokenBarrierException {
    BARRIER.await(); // barrier open at attach
  }

  private static void lock() {
    LOCK.lock(); // lock open at attach
    LOCK.unlock();
  }

  private static void monitor() {
    synchronized (MONITOR) { // monitor open at attach
      monitorEntries++;
    }
  }

  private static void objectWait() throws InterruptedException {
    synchronized (WAIT_OBJECT) {
      while (!notified) {
        WAIT_OBJECT.wait(); // object wait open at attach
        OBJECT_WAIT_RETURNS.add(System.nanoTime());
      }
    }
  }

  private static void sleep() throws InterruptedException {
    Thread.sleep(SLEEP_MS); // sleep open at attach
  }

  /** The sleeping thread, which the {@code join} thread joins. */
  private static Thread sleeper;

  private static void join() throws InterruptedException {
    sleeper.join(); // join open at attach
  }

  private static void forever() throws InterruptedException {
    FOREVER.await(); // latch open at attach
  }

  public static void main(String[] args) throws Exception {
    Path logFile = Path.of(args[0]);
    List<Waiter> waiters = new ArrayList<>();
    Map<String, Long> released = new HashMap<>();
    LOCK.lock();
    long attached;
    long detached;
    synchronized (MONITOR) {
      waiters.add(new Waiter("barrier", OpenWaitsApp::barrier));
      waiters.add(new Waiter("lock", OpenWaitsApp::lock));
      waiters.add(new Waiter("monitor", OpenWaitsApp::monitor));
      waiters.add(new Waiter("objectWait", OpenWaitsApp::objectWait));
      waiters.add(new Waiter("sleep", OpenWaitsApp::sleep));
      waiters.add(new Waiter("forever", OpenWaitsApp::forever));
      waiters.add(new Waiter("join", OpenWaitsApp::join));
      sleeper = waiters.get(4);
      for (Waiter w : waiters) {
        w.start();
      }
      Thread.sleep(300); // all of them wait
      SelfAttach.loadAgent(args[1], args[2]);
      attached = System.nanoTime();
      Thread.sleep(STEP_MS);
      released.put("monitor", System.nanoTime());
    }
    Thread.sleep(STEP_MS);
    released.put("lock", System.nanoTime());
    LOCK.unlock();
    Thread.sleep(STEP_MS);
    released.put("barrier", System.nanoTime());
    BARRIER.await();
    Thread.sleep(STEP_MS);
    synchronized (WAIT_OBJECT) {
      notified = true;
      released.put("objectWait", System.nanoTime());
      WAIT_OBJECT.notifyAll();
    }
    waiters.get(4).join(); // the sleep ends
    // A thread started in a frame running since before the attach (this one): not a woven call.
    Thread started = new Thread(() -> monitorEntries += 0, "startedAfterAttach");
    started.start(); // start in a running frame
    started.join();
    Thread.sleep(STEP_MS);
    detached = System.nanoTime();
    SelfAttach.detach();
    long detachReturned = System.nanoTime();
    FOREVER.countDown();
    for (Waiter w : waiters) {
      w.join();
    }
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(logFile))) {
      out.println("attached " + attached);
      out.println("detached " + detached);
      out.println("detachReturned " + detachReturned);
      for (Waiter w : waiters) {
        out.println(w.getName() + " " + w.start + " " + w.end);
      }
      synchronized (WAIT_OBJECT) {
        for (long r : OBJECT_WAIT_RETURNS) {
          out.println("returned objectWait " + r);
        }
      }
      for (Map.Entry<String, Long> r : released.entrySet()) {
        out.println("released " + r.getKey() + " " + r.getValue());
      }
    } catch (IOException e) {
      throw e;
    }
    System.out.println("waiters: " + waiters.size());
  }
}
