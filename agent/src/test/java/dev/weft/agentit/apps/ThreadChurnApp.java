package dev.weft.agentit.apps;

import java.io.File;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Starts {@code args[0]} threads one after the other, each entering a synchronized block and ending
 * (a thread per task), then prints how many file descriptors the process had open before and after
 * ({@code /proc/self/fd}).
 */
public final class ThreadChurnApp {
  static final AtomicLong total = new AtomicLong();
  static final Object LOCK = new Object();

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    Thread warm = new Thread(ThreadChurnApp::task, "warm");
    warm.start();
    warm.join();
    int before = openFiles();
    for (int i = 0; i < n; i++) {
      Thread t = new Thread(ThreadChurnApp::task, "task-" + i);
      t.start();
      t.join();
    }
    int after = openFiles();
    System.out.println("total: " + total.get());
    System.out.println("fds before: " + before);
    System.out.println("fds after: " + after);
  }

  private static void task() {
    synchronized (LOCK) {
      total.incrementAndGet();
    }
  }

  private static int openFiles() {
    String[] fds = new File("/proc/self/fd").list();
    return fds == null ? -1 : fds.length;
  }

  private ThreadChurnApp() {}
}
