package thirdparty;

import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

/**
 * The Quartz scheduler (2.5, its default {@code SimpleThreadPool} of four {@code bench_Worker-}
 * threads, jobs in memory): three jobs fire every 20 ms and compute for about 2 ms each, so the
 * workers are idle most of the time, waiting on their own monitor for the scheduler thread to hand
 * them a job, and the scheduler thread waits on its own monitor for each next trigger's time.
 * Neither is a {@code ThreadPoolExecutor}: what the tools should show is a pool that is mostly idle,
 * not threads waiting to be signalled. The driver counts the jobs run and times main's wait for the
 * last of them.
 */
final class QuartzWorkload {
  static final int JOBS = 3;
  static final long INTERVAL_MS = 20;

  static final AtomicLong SUM = new AtomicLong();

  /** A job of about 2 ms of computing. */
  public static final class Work implements Job {
    @Override
    public void execute(JobExecutionContext context) {
      long end = System.nanoTime() + 2_000_000;
      long x = end;
      while (System.nanoTime() < end) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      SUM.addAndGet(x & 0xFF);
      RUNS.countDown();
    }
  }

  static CountDownLatch RUNS;

  static void run(double scale) throws Exception {
    System.setProperty("slf4j.internal.verbosity", "ERROR"); // no logger bound: no warning
    int firings = (int) (100 * scale);
    RUNS = new CountDownLatch(JOBS * firings);
    Properties p = new Properties();
    p.setProperty("org.quartz.scheduler.instanceName", "bench");
    p.setProperty("org.quartz.threadPool.threadCount", "4");
    p.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
    p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
    Scheduler scheduler = new StdSchedulerFactory(p).getScheduler();
    scheduler.start();
    for (int i = 0; i < JOBS; i++) {
      scheduler.scheduleJob(
          JobBuilder.newJob(Work.class).withIdentity("job-" + i).build(),
          TriggerBuilder.newTrigger()
              .withIdentity("trigger-" + i)
              .startNow()
              .withSchedule(
                  SimpleScheduleBuilder.simpleSchedule()
                      .withIntervalInMilliseconds(INTERVAL_MS)
                      .withRepeatCount(firings - 1))
              .build());
    }
    long t0 = System.nanoTime();
    boolean all = RUNS.await(10, TimeUnit.MINUTES);
    Truth.add("await", System.nanoTime() - t0);
    // The JVM's counts of the pool's threads are read while they are alive: before the shutdown.
    Truth.print("quartz", "bench_", "main");
    scheduler.shutdown(true);
    if (!all || SUM.get() == 42) System.out.println("not all jobs ran");
  }

  private QuartzWorkload() {}
}
