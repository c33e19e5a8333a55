package dev.weft.agentit.apps.sync;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * Hand-overs through queues, each consumer waiting for its producer:
 *
 * <ol>
 *   <li>{@code main} offers {@link #QUIET} elements to a queue no one takes from and drains it with
 *       {@code poll()}: no consumer waits, so no hand-over is recorded.
 *   <li>{@code consumer} takes {@link #ROUNDS} elements from a {@code LinkedBlockingQueue} that
 *       {@code producer} offers one every {@link #GAP_MS} ms.
 *   <li>{@code borrower} polls (with a timeout) {@link #ROUNDS} elements from a {@code
 *       SynchronousQueue} that {@code returner} offers one every {@link #GAP_MS} ms, retrying an
 *       offer that found no taker (as a connection pool hands a connection back).
 * </ol>
 */
public final class QueueHandOverApp {
  public static final int QUIET = 1000;
  public static final int ROUNDS = 20;
  public static final long GAP_MS = 5;

  public static void main(String[] args) throws Exception {
    BlockingQueue<Integer> quiet = new LinkedBlockingQueue<>();
    for (int i = 0; i < QUIET; i++) {
      quiet.offer(i);
    }
    long drained = 0;
    for (Integer i = quiet.poll(); i != null; i = quiet.poll()) {
      drained += i;
    }

    BlockingQueue<Integer> items = new LinkedBlockingQueue<>();
    long[] sums = new long[2];
    Thread consumer =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < ROUNDS; i++) {
                  sums[0] += items.take();
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "consumer");
    Thread producer =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < ROUNDS; i++) {
                  Thread.sleep(GAP_MS);
                  items.offer(i);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "producer");

    SynchronousQueue<Integer> handoff = new SynchronousQueue<>();
    Thread borrower =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < ROUNDS; i++) {
                  Integer got = handoff.poll(10, TimeUnit.SECONDS);
                  sums[1] += got == null ? -1_000 : got;
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "borrower");
    Thread returner =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < ROUNDS; i++) {
                  Thread.sleep(GAP_MS);
                  while (!handoff.offer(i)) {
                    Thread.sleep(1); // no taker yet
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "returner");
    for (Thread t : new Thread[] {consumer, producer, borrower, returner}) {
      t.start();
    }
    for (Thread t : new Thread[] {consumer, producer, borrower, returner}) {
      t.join();
    }
    System.out.println("drained " + drained + " sums " + sums[0] + " " + sums[1]);
  }
}
