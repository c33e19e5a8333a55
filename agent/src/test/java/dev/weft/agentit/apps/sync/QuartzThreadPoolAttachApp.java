package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

/**
 * Quartz's pool across an attach: {@code QuartzThreadPoolAttachApp LOG AGENT_JAR OPTIONS} starts a
 * scheduler whose {@link #WORKERS} workers run one short job every {@link #INTERVAL_MS} ms, loads
 * the agent into itself once they run, keeps them running for {@link #RECORD_MS} ms (long enough
 * for the JVM's monitor events to begin), detaches and writes how many jobs ran to LOG. The
 * workers' and the scheduler thread's waits are in loops that began before the attach.
 */
public final class QuartzThreadPoolAttachApp {
  public static final int WORKERS = 2;
  public static final long INTERVAL_MS = 60;
  public static final long RECORD_MS = 4_000;

  static final AtomicLong RUNS = new AtomicLong();

  /** A job of about a millisecond. */
  public static final class Work implements Job {
    @Override
    public void execute(JobExecutionContext context) {
      long x = 0;
      for (long end = System.nanoTime() + 1_000_000; System.nanoTime() < end; ) {
        x = x * 31 + 7;
      }
      RUNS.addAndGet(x == 42 ? 2 : 1);
    }
  }

  public static void main(String[] args) throws Exception {
    System.setProperty("slf4j.internal.verbosity", "ERROR"); // no logger bound: no warning
    Properties p = new Properties();
    p.setProperty("org.quartz.scheduler.instanceName", "weftattach");
    p.setProperty("org.quartz.threadPool.threadCount", String.valueOf(WORKERS));
    p.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
    p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
    Scheduler scheduler = new StdSchedulerFactory(p).getScheduler();
    scheduler.start();
    scheduler.scheduleJob(
        JobBuilder.newJob(Work.class).withIdentity("job").build(),
        TriggerBuilder.newTrigger()
            .withIdentity("trigger")
            .startNow()
            .withSchedule(
                SimpleScheduleBuilder.simpleSchedule()
                    .withIntervalInMilliseconds(INTERVAL_MS)
                    .repeatForever())
            .build());
    Thread.sleep(500); // the workers and the scheduler thread are in their loops
    SelfAttach.loadAgent(args[1], args[2]);
    Thread.sleep(RECORD_MS);
    SelfAttach.detach();
    scheduler.shutdown(true);
    Files.writeString(Path.of(args[0]), "jobs " + RUNS.get() + "\n");
  }

  private QuartzThreadPoolAttachApp() {}
}
