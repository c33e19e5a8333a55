package dev.weft.agentit.apps.sync;

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
 * A Quartz scheduler with its default pool ({@code SimpleThreadPool}, {@link #WORKERS} workers):
 * {@link #JOBS} jobs, each fired {@link #FIRINGS} times every {@link #INTERVAL_MS} ms and computing
 * for about {@link #WORK_MS} ms. The workers wait for jobs between firings, the scheduler's thread
 * for each next trigger's time.
 */
public final class QuartzThreadPoolApp {
  public static final int WORKERS = 3;
  public static final int JOBS = 2;
  public static final int FIRINGS = 8;
  public static final long INTERVAL_MS = 25;
  public static final long WORK_MS = 2;

  static final CountDownLatch RUNS = new CountDownLatch(JOBS * FIRINGS);
  static final AtomicLong SINK = new AtomicLong();

  /** A job computing for about WORK_MS. */
  public static final class Work implements Job {
    @Override
    public void execute(JobExecutionContext context) {
      long x = 0;
      for (long end = System.nanoTime() + WORK_MS * 1_000_000; System.nanoTime() < end; ) {
        x = x * 31 + 7;
      }
      SINK.addAndGet(x);
      RUNS.countDown();
    }
  }

  public static void main(String[] args) throws Exception {
    // Quartz logs through SLF4J, which warns on stderr that no logger is bound.
    System.setProperty("slf4j.internal.verbosity", "ERROR");
    Properties p = new Properties();
    p.setProperty("org.quartz.scheduler.instanceName", "weftit");
    p.setProperty("org.quartz.threadPool.threadCount", String.valueOf(WORKERS));
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
                      .withRepeatCount(FIRINGS - 1))
              .build());
    }
    boolean all = RUNS.await(60, TimeUnit.SECONDS);
    scheduler.shutdown(true);
    System.out.println("ran all " + all);
  }
}
