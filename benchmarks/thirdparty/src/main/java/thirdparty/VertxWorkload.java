package thirdparty;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Vert.x 5 (event bus and worker pool): each round main sends 100 requests over the event bus and
 * waits for all the replies; a consumer on one of 2 event-loop threads hands each request to
 * executeBlocking (a CPU-bound piece of 0.1-0.5 ms on a pool of 4 worker threads) and replies when
 * it is done. The event loops idle in epoll between messages, the workers in their pool's queue,
 * and Vert.x's blocked-thread checker (a java.util.Timer) wakes once a second for the whole run.
 * The driver times each round's wait, and each request's wait from main's {@code request} to the
 * start of the consumer's handler on the event loop ("delivery"): the event loop's lag, which the
 * loop's queue holds while main's hundred requests of a round are delivered one after another.
 */
final class VertxWorkload {
  static void run(double scale) throws Exception {
    int rounds = (int) (100 * scale);
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2).setWorkerPoolSize(4));
    AtomicLongArray sentAt = new AtomicLongArray(100);
    vertx.eventBus().<Integer>consumer("work", msg -> {
      int i = msg.body();
      Truth.add("delivery", System.nanoTime() - sentAt.get(i));
      vertx.executeBlocking(() -> spin(100_000L + (i % 5) * 100_000L))
          .onSuccess(msg::reply);
    });
    long checksum = 0;
    try {
      for (int r = 0; r < rounds; r++) {
        List<Future<Message<Long>>> replies = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < 100; i++) {
          sentAt.set(i, System.nanoTime());
          replies.add(vertx.eventBus().request("work", i));
        }
        Future.all(replies).toCompletionStage().toCompletableFuture().get();
        Truth.add("round", System.nanoTime() - t0);
        for (Future<Message<Long>> f : replies) checksum += f.result().body();
      }
    } finally {
      Truth.print(
          "vertx",
          "vert.x-eventloop-thread-",
          "vert.x-worker-thread-",
          "vertx-blocked-thread-checker",
          "main");
      vertx.close().toCompletionStage().toCompletableFuture().get();
    }
    if (checksum == 42) System.out.println(); // keep the work
  }

  /** Computes for {@code ns} nanoseconds. */
  private static long spin(long ns) {
    long end = System.nanoTime() + ns;
    long x = ns;
    while (System.nanoTime() < end) x = x * 6364136223846793005L + 1442695040888963407L;
    return x & 0xFF;
  }
}
