package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code java.util.Timer}s across an attach: {@code RunningTimerApp LOG AGENT_JAR OPTIONS} starts
 * {@code running-timer} (a task every 10 ms) before it loads the agent into itself, so that its
 * thread's loop runs the JDK's original code for the whole recording; once attached, it starts
 * {@code new-timer} (the same), whose loop runs the woven code. It detaches after RECORD_MS and
 * writes the ticks of both timers to LOG.
 */
public final class RunningTimerApp {
  /** Long enough for the JVM's monitor events to start after the attach (0.2–1.3 s). */
  public static final long RECORD_MS = 2500;

  public static void main(String[] args) throws Exception {
    AtomicLong runningTicks = new AtomicLong();
    AtomicLong newTicks = new AtomicLong();
    Timer running = new Timer("running-timer", true);
    running.scheduleAtFixedRate(tick(runningTicks), 10, 10);
    Thread.sleep(100); // its loop is waiting
    SelfAttach.loadAgent(args[1], args[2]);
    Timer started = new Timer("new-timer", true);
    started.scheduleAtFixedRate(tick(newTicks), 10, 10);
    Thread.sleep(RECORD_MS);
    SelfAttach.detach();
    running.cancel();
    started.cancel();
    Files.writeString(
        Path.of(args[0]), "running " + runningTicks.get() + "\nnew " + newTicks.get() + "\n");
  }

  private static TimerTask tick(AtomicLong ticks) {
    return new TimerTask() {
      @Override
      public void run() {
        ticks.incrementAndGet();
      }
    };
  }
}
