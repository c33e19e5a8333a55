package dev.weft.analysis.apps;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Vector;
import java.util.function.IntConsumer;

/**
 * Four threads contend on one monitor for {@code MS} milliseconds: {@code HiddenMonitorApp MODE MS}
 * with MODE {@code jdk} (each adds to one {@code Vector}: the monitor is taken by synchronized
 * methods of a JDK class, which the agent does not weave), {@code wrapper} (each adds to one {@code
 * Collections.synchronizedList}: a JDK class whose synchronized blocks the agent weaves), {@code
 * woven} (each enters a {@code synchronized} block of its own code, woven and recorded) or {@code
 * selector} (each wakes up a selector in which {@code event-loop} selects over and over: the JDK's
 * selector takes its wake-up lock in {@code wakeup()} and, after each select, to clear the wake-up;
 * blocks of a JDK class the agent weaves). Prints one line that does not depend on the run.
 */
public final class HiddenMonitorApp {
  private static final int THREADS = 4;
  private static final Object MONITOR = new Object();
  private static long counter;

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    long ms = Long.parseLong(args[1]);
    if (mode.equals("selector")) {
      wakeUps(ms);
      return;
    }
    List<Integer> list =
        mode.equals("wrapper") ? Collections.synchronizedList(new ArrayList<>()) : new Vector<>();
    contend(
        ms,
        i -> {
          if (!mode.equals("woven")) {
            list.add(i);
            if (list.size() > 10_000) {
              list.clear();
            }
          } else {
            synchronized (MONITOR) {
              counter += spin(i);
            }
          }
        });
    System.out.println("done " + mode + (counter == 42 ? "!" : ""));
  }

  private static void wakeUps(long ms) throws Exception {
    Selector selector = Selector.open();
    Thread loop =
        new Thread(
            () -> {
              try {
                while (selector.isOpen()) {
                  selector.select();
                }
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              } catch (ClosedSelectorException e) {
                // closed by main: the loop ends
              }
            },
            "event-loop");
    loop.start();
    contend(
        ms,
        i -> {
          selector.wakeup();
          long next = System.nanoTime() + 20_000; // about 50,000 wake-ups a second
          while (System.nanoTime() < next) {
            Thread.onSpinWait();
          }
        });
    selector.close();
    loop.join();
    System.out.println("done selector");
  }

  /**
   * THREADS threads {@code contender-<k>} each run {@code step} with 0, 1, 2, … for {@code ms}
   * milliseconds; returns when all have ended.
   */
  private static void contend(long ms, IntConsumer step) throws InterruptedException {
    List<Thread> threads = new ArrayList<>();
    for (int k = 0; k < THREADS; k++) {
      threads.add(
          new Thread(
              () -> {
                long end = System.nanoTime() + ms * 1_000_000L;
                for (int i = 0; System.nanoTime() < end; i++) {
                  step.accept(i);
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
