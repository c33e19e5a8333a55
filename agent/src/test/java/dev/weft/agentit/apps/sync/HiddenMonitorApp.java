package dev.weft.agentit.apps.sync;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Vector;

/**
 * Four threads contend on one monitor for {@code MS} milliseconds: {@code HiddenMonitorApp MODE MS}
 * with MODE {@code jdk} (each adds to one {@code Vector}: the monitor is taken by synchronized
 * methods of a JDK class, which the agent does not weave), {@code wrapper} (each adds to one {@code
 * Collections.synchronizedList}: a JDK class whose synchronized blocks the agent weaves), {@code
 * printstream} (each prints lines to one {@code PrintStream}, which JDK 17 and 24+ guard by
 * synchronized blocks that the agent weaves) or {@code woven} (each enters a {@code synchronized}
 * block of its own code, woven and recorded). Prints one line that does not depend on the run.
 */
public final class HiddenMonitorApp {
  private static final int THREADS = 4;
  private static final Object MONITOR = new Object();
  private static long counter;
  private static final PrintStream OUT = new PrintStream(OutputStream.nullOutputStream());

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    long ms = Long.parseLong(args[1]);
    List<Integer> list =
        mode.equals("wrapper") ? Collections.synchronizedList(new ArrayList<>()) : new Vector<>();
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < THREADS; k++) {
      threads.add(
          new Thread(
              () -> {
                long end = System.nanoTime() + ms * 1_000_000L;
                int i = 0;
                while (System.nanoTime() < end) {
                  if (mode.equals("printstream")) {
                    OUT.println(i);
                  } else if (!mode.equals("woven")) {
                    list.add(i);
                    if (list.size() > 10_000) {
                      list.clear();
                    }
                  } else {
                    synchronized (MONITOR) {
                      counter += spin(i);
                    }
                  }
                  i++;
                }
              },
              "contender-" + k));
    }
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    System.out.println("done " + mode + (counter == 42 ? "!" : ""));
  }

  /** A little work inside the monitor, so that the others queue for it. */
  private static long spin(int seed) {
    long x = seed;
    for (int j = 0; j < 200; j++) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x & 1;
  }
}
