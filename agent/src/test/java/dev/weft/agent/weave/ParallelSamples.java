package dev.weft.agent.weave;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

/** Calls of the parallelism families' targets, directly and through method references. */
public final class ParallelSamples {
  private ParallelSamples() {}

  /** An action that may throw anything. */
  public interface Action {
    void run() throws Exception;
  }

  /** A task that answers 42, or throws when told to. */
  public static final class Answer extends RecursiveTask<Integer> {
    private final boolean fail;

    public Answer(boolean fail) {
      this.fail = fail;
    }

    @Override
    protected Integer compute() {
      if (fail) {
        throw new IllegalStateException("no answer");
      }
      return 42;
    }
  }

  public static int invokeOutsidePool(Answer task) {
    return task.invoke();
  }

  public static int forkAndJoinByReference(Answer task) {
    task.fork();
    Supplier<Integer> join = task::join;
    return join.get();
  }

  public static int parallelSum() {
    return IntStream.range(0, 100).parallel().sum();
  }

  public static long countByReference(boolean parallel) {
    ToLongFunction<IntStream> count = IntStream::count;
    IntStream numbers = IntStream.range(0, 5);
    return count.applyAsLong(parallel ? numbers.parallel() : numbers);
  }

  public static void parallelThrows() {
    IntStream.of(1)
        .parallel()
        .forEach(
            i -> {
              throw new IllegalStateException("element " + i);
            });
  }

  public static int executorCalls(ExecutorService executor) throws Exception {
    Future<Integer> submitted = executor.submit(() -> 6);
    List<Future<Integer>> all = executor.invokeAll(List.of(() -> 1));
    Consumer<Runnable> execute = executor::execute;
    execute.accept(() -> {});
    executor.shutdown();
    executor.awaitTermination(10, TimeUnit.SECONDS);
    return submitted.get() + all.get(0).get();
  }

  public static void executeNull(ExecutorService executor) {
    try {
      executor.execute(null);
    } finally {
      executor.shutdown();
    }
  }

  public static int futures() throws Exception {
    CompletableFuture<Integer> completed = CompletableFuture.completedFuture(5);
    Supplier<Integer> join = completed::join;
    FutureTask<Integer> task = new FutureTask<>(() -> 7);
    task.run();
    return join.get() + task.get();
  }

  public static int failedJoin() {
    return CompletableFuture.<Integer>failedFuture(new IllegalStateException("failed")).join();
  }

  public static String startAndJoin(Thread thread) throws Exception {
    Runnable start = thread::start;
    start.run();
    Action join = thread::join;
    join.run();
    return thread.getState().name();
  }

  public static void joinWhenInterrupted(Thread thread) throws Exception {
    thread.start();
    Thread.currentThread().interrupt();
    thread.join();
  }

  public static void startTwice(Thread thread) throws Exception {
    thread.start();
    thread.start();
  }
}
