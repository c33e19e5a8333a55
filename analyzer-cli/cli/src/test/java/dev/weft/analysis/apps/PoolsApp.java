package dev.weft.analysis.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@code PoolsApp MS}: pools as servers run them, idle most of the time.
 *
 * <ul>
 *   <li>A pool of its own (as Jetty's or Netty's): two threads {@code own-worker-<i>} loop on
 *       {@code Runnable job = jobs.poll(timeout)}; main hands them a short job every 100 ms for MS
 *       ms. Idle workers, waiting for their next task.
 *   <li>A {@code ScheduledThreadPoolExecutor} of two threads {@code scheduler-<i>}: a task run at
 *       once, one scheduled MS / 2 ms ahead (it runs), and an idle timeout scheduled 60 s ahead and
 *       cancelled, as servers arm and cancel them.
 *   <li>Executors that give tasks up, as connection pools' do: a pool of one thread {@code adder}
 *       with room for one task and a DiscardOldestPolicy, handed six tasks at once (four are
 *       discarded); a pool of one thread with no queue and a CallerRunsPolicy, handed four (main
 *       runs those the busy worker cannot take); the same with handlers of its own, one that drops
 *       the task (as HikariCP's connection adder does) and one that waits to queue it; a pool of
 *       one thread handed four tasks, one taken out of its queue ({@code remove}), two drained by
 *       {@code shutdownNow}. The scheduler removes cancelled tasks from its queue.
 * </ul>
 *
 * Prints one line that does not depend on the run.
 */
public final class PoolsApp {
  private static volatile boolean running = true;
  private static volatile long sink;

  public static void main(String[] args) throws Exception {
    long ms = Long.parseLong(args[0]);
    BlockingQueue<Runnable> jobs = new LinkedBlockingQueue<>();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Thread w = new Thread(() -> work(jobs), "own-worker-" + i);
      workers.add(w);
      w.start();
    }
    ScheduledThreadPoolExecutor scheduler =
        new ScheduledThreadPoolExecutor(
            2,
            r -> {
              Thread t = new Thread(r);
              t.setName("scheduler-" + t.getId());
              return t;
            });
    ThreadPoolExecutor adder =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(1),
            r -> new Thread(r, "adder"),
            new ThreadPoolExecutor.DiscardOldestPolicy());
    ThreadPoolExecutor callerRuns =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new SynchronousQueue<>(),
            r -> new Thread(r, "caller-runs-worker"),
            new ThreadPoolExecutor.CallerRunsPolicy());
    for (int i = 0; i < 6; i++) {
      adder.execute(new Job()); // tasks are told apart by identity: one object each
    }
    for (int i = 0; i < 4; i++) {
      callerRuns.execute(new Job());
    }
    ThreadPoolExecutor drops = oneSlot("drops", (r, e) -> {});
    ThreadPoolExecutor queuesAnyway =
        oneSlot(
            "queues-anyway",
            (r, e) -> {
              try {
                e.getQueue().put(r);
              } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
              }
            });
    for (int i = 0; i < 6; i++) {
      drops.execute(new Job());
      queuesAnyway.execute(new Job());
    }
    ThreadPoolExecutor stopped =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            r -> new Thread(r, "stopped"));
    Job taken = new Job();
    for (Job job : List.of(new Job(), taken, new Job(), new Job())) {
      stopped.execute(job);
    }
    stopped.remove(taken); // queued behind the first: taken out, never run
    stopped.shutdownNow(); // the two still queued never run
    scheduler.setRemoveOnCancelPolicy(true); // the cancelled timeout leaves the queue
    ScheduledExecutorService timers = scheduler;
    timers.execute(PoolsApp::compute);
    ScheduledFuture<?> due = timers.schedule(PoolsApp::compute, ms / 2, TimeUnit.MILLISECONDS);
    ScheduledFuture<?> idleTimeout = timers.schedule(PoolsApp::compute, 60, TimeUnit.SECONDS);
    long end = System.nanoTime() + ms * 1_000_000;
    int handed = 0;
    while (System.nanoTime() < end) {
      jobs.put(PoolsApp::compute);
      handed++;
      Thread.sleep(100);
    }
    due.get();
    idleTimeout.cancel(false);
    running = false;
    for (Thread w : workers) {
      w.join();
    }
    for (ThreadPoolExecutor e : List.of(scheduler, adder, callerRuns, drops, queuesAnyway)) {
      e.shutdown();
      e.awaitTermination(10, TimeUnit.SECONDS);
    }
    System.out.println("pools done: " + (handed > 0));
  }

  /** One thread with room for one queued task, and {@code handler} for the tasks beyond. */
  private static ThreadPoolExecutor oneSlot(String name, RejectedExecutionHandler handler) {
    return new ThreadPoolExecutor(
        1,
        1,
        0,
        TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(1),
        r -> new Thread(r, name),
        handler);
  }

  private static void work(BlockingQueue<Runnable> jobs) {
    try {
      while (running) {
        Runnable job = jobs.poll(50, TimeUnit.MILLISECONDS);
        if (job != null) {
          job.run();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A task of a few ms. */
  private static final class Job implements Runnable {
    @Override
    public void run() {
      for (int i = 0; i < 20; i++) {
        compute();
      }
    }
  }

  private static void compute() {
    long x = 0;
    for (int i = 0; i < 100_000; i++) {
      x += i * 31L;
    }
    sink += x;
  }

  private PoolsApp() {}
}
