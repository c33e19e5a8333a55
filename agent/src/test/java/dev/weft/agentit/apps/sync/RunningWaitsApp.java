package dev.weft.agentit.apps.sync;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.ReentrantLock;
import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;

/**
 * Waits that happen only in loops started before the agent attaches: {@code RunningWaitsApp LOG
 * AGENT_JAR OPTIONS} starts WORKERS threads whose {@link Worker#run} never returns until the end;
 * each round they meet at a barrier, enter a contended monitor in the loop itself and another in a
 * method called afresh ({@link Worker#monitorHelper}), and take a contended lock in the loop and
 * another in a method called afresh ({@link Worker#helper}); the methods called afresh are woven at
 * their call sites once the agent is there. A {@link Holder} thread keeps the monitors busy. After
 * a while main attaches the agent to this JVM, keeps it for RECORD_MS once its reading of the JVM's
 * monitor events runs, detaches it and stops the workers. Every wait is logged with its start and
 * end ({@code System.nanoTime}) to LOG, as {@code thread site start end}; the lines {@code attached
 * T} and {@code detached T} give the moments loadAgent returned and detach was called. {@code
 * RunningWaitsApp LOG none} never attaches. stdout is the same either way.
 */
public final class RunningWaitsApp {
  public static final int WORKERS = 3;

  /** Rounds each worker does at least in the window (a busy host makes it longer). */
  public static final int MIN_ROUNDS = 100;

  public static final long RECORD_MS = 3000;

  private static final CyclicBarrier BARRIER = new CyclicBarrier(WORKERS);
  private static final ReentrantLock LOOP_LOCK = new ReentrantLock();
  private static final ReentrantLock HELPER_LOCK = new ReentrantLock();
  private static final Object MONITOR = new Object();
  private static final Object HELPER_MONITOR = new Object();
  private static volatile boolean stop;
  private static final Rounds ROUNDS = new Rounds(WORKERS);

  /** One worker: its loop is entered before the attach and left at the end. */
  static final class Worker extends Thread {
    final List<long[]> log = new ArrayList<>();
    final List<String> sites = new ArrayList<>();
    private final int index;
    long sum;

    Worker(int index) {
      super("worker-" + index);
      this.index = index;
    }

    @Override
    public void run() {
      try {
        while (!stop) {
          long t0 = System.nanoTime();
          BARRIER.await(); // barrier in running frame
          log("barrier", t0);
          t0 = System.nanoTime();
          synchronized (MONITOR) { // monitor in running frame
            log("monitor", t0);
            work(200_000);
          }
          monitorHelper();
          work(200_000L * (index + 1)); // uneven work: the barrier waits
          t0 = System.nanoTime();
          LOOP_LOCK.lock(); // lock in running frame
          log("loopLock", t0);
          try {
            // Long enough that the waits add up to far more than a descheduled thread's delay
            // between the application's clock read and the agent's.
            work(1_000_000);
          } finally {
            LOOP_LOCK.unlock();
          }
          helper();
          ROUNDS.done(index);
        }
      } catch (InterruptedException | BrokenBarrierException e) {
        // the end
      }
    }

    /** Called afresh each round: woven at its call site once the agent is there. */
    private void helper() {
      long t0 = System.nanoTime();
      HELPER_LOCK.lock(); // lock in helper
      log("helperLock", t0);
      try {
        work(300_000);
      } finally {
        HELPER_LOCK.unlock();
      }
    }

    /**
     * Called afresh each round: its monitor is woven at its call site once the agent is there. Held
     * longer than the first monitor, so that the workers queue here too.
     */
    private void monitorHelper() {
      long t0 = System.nanoTime();
      synchronized (HELPER_MONITOR) { // monitor in helper
        log("helperMonitor", t0);
        work(200_000);
      }
    }

    private void log(String site, long start) {
      long end = System.nanoTime();
      sites.add(site);
      log.add(new long[] {start, end});
    }

    /** Busy for about {@code nanos}. */
    private void work(long nanos) {
      long until = System.nanoTime() + nanos;
      long x = sum;
      while (System.nanoTime() < until) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      sum = x;
    }
  }

  /**
   * Holds each monitor for 2 ms in turn, asleep, from a loop that runs through the attach: the
   * workers' entries wait for it (and for each other) most of the time.
   */
  static final class Holder extends Thread {
    Holder() {
      super("holder");
      setDaemon(true);
    }

    @Override
    public void run() {
      try {
        while (!stop) {
          synchronized (MONITOR) {
            Thread.sleep(2);
          }
          synchronized (HELPER_MONITOR) {
            Thread.sleep(2);
          }
          Thread.sleep(1);
        }
      } catch (InterruptedException e) {
        // the end
      }
    }
  }

  public static void main(String[] args) throws Exception {
    Path logFile = Path.of(args[0]);
    boolean attach = !args[1].equals("none");
    new Holder().start();
    List<Worker> workers = new ArrayList<>();
    for (int i = 0; i < WORKERS; i++) {
      Worker w = new Worker(i);
      workers.add(w);
      w.start();
    }
    Thread.sleep(500); // the loops run, warm
    long attached = 0;
    long detached = 0;
    long attaching = System.nanoTime();
    if (attach) {
      SelfAttach.loadAgent(args[1], args[2]);
      attached = System.nanoTime();
      awaitMonitorEvents();
    }
    int[] roundsAtStart = ROUNDS.mark();
    Thread.sleep(RECORD_MS);
    ROUNDS.awaitEach(roundsAtStart, MIN_ROUNDS, 30_000);
    if (attach) {
      detached = System.nanoTime();
      SelfAttach.detach();
    }
    Thread.sleep(200);
    stop = true;
    for (Worker w : workers) {
      // Breaks the barrier for whoever waits at it; a worker arriving later meets the next reset.
      while (w.isAlive()) {
        BARRIER.reset();
        w.join(20);
      }
    }
    write(logFile, workers, attaching, attached, detached);
    System.out.println("workers: " + workers.size());
  }

  /**
   * Until the agent's reading of the JVM's monitor events runs (a JFR recording: it takes seconds
   * to start on a busy host), so that RECORD_MS of them follow; at most 30 s.
   */
  private static void awaitMonitorEvents() throws InterruptedException {
    long until = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < until) {
      if (FlightRecorder.isInitialized()
          && FlightRecorder.getFlightRecorder().getRecordings().stream()
              .anyMatch(r -> r.getState() == RecordingState.RUNNING)) {
        return;
      }
      Thread.sleep(20);
    }
  }

  private static void write(
      Path file, List<Worker> workers, long attaching, long attached, long detached)
      throws IOException {
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file))) {
      out.println("attaching " + attaching);
      out.println("attached " + attached);
      out.println("detached " + detached);
      for (Worker w : workers) {
        for (int i = 0; i < w.log.size(); i++) {
          long[] e = w.log.get(i);
          out.println(w.getName() + " " + w.sites.get(i) + " " + e[0] + " " + e[1]);
        }
      }
    }
  }
}
