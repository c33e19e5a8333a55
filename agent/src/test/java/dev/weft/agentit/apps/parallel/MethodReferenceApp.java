package dev.weft.agentit.apps.parallel;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Waits reached through method references, whose calls happen inside lambda classes the JVM makes
 * at run time: a bound {@code left::join} inside fork-join tasks, an unbound {@code
 * CompletableFuture::join} in a stream, a bound {@code thread::join} through a user interface, and
 * a serializable reference (left as it is) that is serialised and read back. Prints the results,
 * which the test compares with an unrecorded run.
 */
public final class MethodReferenceApp {
  /** {@code Thread.join} throws, so it needs an interface of its own. */
  interface Joiner {
    void join() throws InterruptedException;
  }

  interface SerializableSupplier<T> extends Supplier<T>, Serializable {}

  /** Joins made through the bound reference. */
  static final AtomicLong JOINS = new AtomicLong();

  static final class Sum extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;
    private final int lo;
    private final int hi;

    Sum(int lo, int hi) {
      this.lo = lo;
      this.hi = hi;
    }

    @Override
    protected Long compute() {
      if (hi - lo <= 1000) {
        long s = 0;
        for (int i = lo; i < hi; i++) {
          s += (long) i * i % 7;
        }
        return s;
      }
      int mid = (lo + hi) >>> 1;
      Sum left = new Sum(lo, mid);
      left.fork();
      JOINS.incrementAndGet();
      long r = new Sum(mid, hi).compute();
      return call(left::join) + r; // bound join reference
    }
  }

  static <T> T call(Callable<T> c) {
    try {
      return c.call();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  public static void main(String[] args) throws Exception {
    ForkJoinPool pool = new ForkJoinPool(2);
    System.out.println("sum: " + pool.invoke(new Sum(0, 64_000)));
    pool.shutdown();

    List<CompletableFuture<Integer>> futures =
        List.of(1, 2, 3).stream()
            .map(i -> CompletableFuture.supplyAsync(() -> i * 10))
            .collect(Collectors.toList());
    Function<CompletableFuture<Integer>, Integer> join = CompletableFuture::join; // unbound join
    int total = futures.stream().map(join).mapToInt(Integer::intValue).sum();
    System.out.println("futures: " + total);

    System.out.println("joins: " + JOINS.get());

    Thread worker = new Thread(() -> System.out.println("worker ran"));
    worker.start();
    Joiner joiner = worker::join; // thread join reference
    joiner.join();

    Sum done = new Sum(0, 1000); // one leaf: no join of its own
    done.invoke();
    SerializableSupplier<Long> later = done::join; // serializable: not rewritten
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(later);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      @SuppressWarnings("unchecked")
      SerializableSupplier<Long> read = (SerializableSupplier<Long>) in.readObject();
      System.out.println("serializable: " + read.get());
    }
  }
}
