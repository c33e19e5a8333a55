package dev.weft.agentit.apps.sync;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Phaser;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.TimeUnit;

/**
 * Fork-join joins and phaser arrivals that happen only in loops started before the agent attaches:
 * {@code RunningForkJoinApp LOG AGENT_JAR OPTIONS} starts WORKERS threads whose {@link Worker#run}
 * never returns until the end, and a {@link Server} task on a pool of one worker whose {@code
 * compute} does not either. Each round a worker joins a task it submitted to another pool, gets
 * another's result, invokes a task from outside any pool, arrives at a phaser, registers at a
 * second one and arrives and deregisters, then calls {@link Worker#helper} afresh, which does the
 * same with other objects (and one {@code Thread.onSpinWait}) and is woven at its call sites once
 * the agent is there, unless its class is left alone. The server forks a task and joins it (its
 * only worker runs it itself, inside the join) and joins a task of the other pool. Every join, get,
 * invoke and arrival is logged as {@code thread site start end} ({@code System.nanoTime}), every
 * task run as {@code thread leaf start end}; and {@code attached T}, {@code detached T}. {@code
 * RunningForkJoinApp LOG none} never attaches. stdout is the same either way.
 */
public final class RunningForkJoinApp {
  public static final int WORKERS = 2;
  public static final long RECORD_MS = 4000;

  private static final ForkJoinPool OTHER = new ForkJoinPool(2);

  /**
   * One worker and never more (no spare thread while it is blocked in a join), so nobody steals the
   * task it forks: it runs it itself, inside its join.
   */
  private static final ForkJoinPool SERVER_POOL =
      new ForkJoinPool(
          1,
          p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            t.setName("server");
            return t;
          },
          null,
          false,
          0,
          1,
          0,
          p -> true,
          60,
          TimeUnit.SECONDS);

  private static final Phaser ARRIVALS = new Phaser(WORKERS);
  private static final Phaser HELPER_ARRIVALS = new Phaser(WORKERS);
  private static final Phaser DEREGISTERING = new Phaser(1);
  private static final Queue<String> LOG = new ConcurrentLinkedQueue<>();
  private static volatile boolean stop;

  /** A task that works for a while and logs where and when it ran. */
  static final class Leaf extends RecursiveAction {
    private final long nanos;

    Leaf(long nanos) {
      this.nanos = nanos;
    }

    @Override
    protected void compute() {
      long t0 = System.nanoTime();
      work(nanos);
      log("leaf", t0);
    }
  }

  /** Invoked from outside any pool: runs on the caller, forks a leaf to the common pool. */
  static final class Split extends RecursiveAction {
    @Override
    protected void compute() {
      Leaf l = new Leaf(600_000);
      l.fork();
      work(200_000);
      l.join();
    }
  }

  /** One worker: its loop is entered before the attach and left at the end. */
  static final class Worker extends Thread {
    Worker(int index) {
      super("worker-" + index);
    }

    @Override
    public void run() {
      try {
        while (!stop) {
          Leaf a = new Leaf(1_000_000);
          OTHER.execute(a);
          long t0 = System.nanoTime();
          a.join(); // fork-join join in running frame
          log("join", t0);
          Leaf b = new Leaf(800_000);
          OTHER.execute(b);
          t0 = System.nanoTime();
          b.get(); // fork-join get in running frame
          log("get", t0);
          t0 = System.nanoTime();
          new Split().invoke(); // fork-join invoke in running frame
          log("invoke", t0);
          t0 = System.nanoTime();
          OTHER.invoke(new Split()); // pool invoke in running frame
          log("poolInvoke", t0);
          t0 = System.nanoTime();
          int phase = ARRIVALS.arrive(); // arrive in running frame
          log("arrive", t0);
          DEREGISTERING.register();
          t0 = System.nanoTime();
          DEREGISTERING.arriveAndDeregister(); // deregister in running frame
          log("deregister", t0);
          helper();
          ARRIVALS.awaitAdvance(phase); // a party arrives once per phase
        }
      } catch (InterruptedException | ExecutionException e) {
        // the end
      }
    }

    /** Called afresh each round: woven at its call sites once the agent is there. */
    private void helper() {
      Leaf a = new Leaf(300_000);
      OTHER.execute(a);
      long t0 = System.nanoTime();
      a.join(); // fork-join join in helper
      log("helperJoin", t0);
      t0 = System.nanoTime();
      new Split().invoke(); // fork-join invoke in helper
      log("helperInvoke", t0);
      t0 = System.nanoTime();
      int phase = HELPER_ARRIVALS.arrive(); // arrive in helper
      log("helperArrive", t0);
      Thread.onSpinWait(); // spin in helper
      HELPER_ARRIVALS.awaitAdvance(phase);
    }
  }

  /** Runs on the server pool's only worker from before the attach to the end. */
  static final class Server extends RecursiveAction {
    @Override
    protected void compute() {
      while (!stop) {
        Leaf own = new Leaf(700_000);
        own.fork();
        work(100_000);
        long t0 = System.nanoTime();
        own.join(); // server join of its own task in running frame
        log("serverJoin", t0);
        Leaf other = new Leaf(700_000);
        OTHER.execute(other);
        t0 = System.nanoTime();
        other.join(); // server join of another pool's task in running frame
        log("serverJoinOther", t0);
      }
    }
  }

  static void log(String site, long start) {
    long end = System.nanoTime();
    LOG.add(Thread.currentThread().getName() + " " + site + " " + start + " " + end);
  }

  private static void work(long nanos) {
    RunningJucWaitsApp.work(nanos);
  }

  public static void main(String[] args) throws Exception {
    Path logFile = Path.of(args[0]);
    boolean attach = !args[1].equals("none");
    SERVER_POOL.execute(new Server());
    List<Worker> workers = new ArrayList<>();
    for (int i = 0; i < WORKERS; i++) {
      Worker w = new Worker(i);
      workers.add(w);
      w.start();
    }
    Thread.sleep(500); // the loops run, warm
    long attached = 0;
    long detached = 0;
    if (attach) {
      SelfAttach.loadAgent(args[1], args[2]);
      attached = System.nanoTime();
    }
    Thread.sleep(RECORD_MS);
    if (attach) {
      detached = System.nanoTime();
      SelfAttach.detach();
    }
    Thread.sleep(200);
    stop = true;
    for (Worker w : workers) {
      // Frees whoever awaits a phase that a worker which has left will not arrive at.
      while (w.isAlive()) {
        ARRIVALS.forceTermination();
        HELPER_ARRIVALS.forceTermination();
        w.join(20);
      }
    }
    SERVER_POOL.shutdown();
    SERVER_POOL.awaitTermination(10, TimeUnit.SECONDS);
    write(logFile, attached, detached);
    System.out.println("workers: " + workers.size());
  }

  private static void write(Path file, long attached, long detached) throws IOException {
    try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file))) {
      out.println("attached " + attached);
      out.println("detached " + detached);
      for (String line : LOG) {
        out.println(line);
      }
    }
  }
}
