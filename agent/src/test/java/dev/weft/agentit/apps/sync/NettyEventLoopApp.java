package dev.weft.agentit.apps.sync;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Netty's NIO event loop, one "loop-" thread: {@code NettyEventLoopApp WAITS} has the main thread
 * execute {@link #BURST} tasks of {@link #BURST_TASK_NS} ns each at once (the k-th waits for the k
 * before it: the loop's lag), schedule {@link #SCHEDULED} tasks {@link #DELAY_MS} ms ahead, run a
 * periodic task {@link #PERIODIC_RUNS} times (it cancels itself) and queue {@link #TAIL} tasks for
 * the end of the loop's round; then it shuts the loop down and executes one more task, which the
 * loop rejects. The burst's total wait in the queue, as the program measures it (from before each
 * {@code execute} to the start of the task's run), is written to WAITS in nanoseconds.
 */
@SuppressWarnings("deprecation") // NioEventLoopGroup: the 4.1 API, still in 4.2
public final class NettyEventLoopApp {
  public static final int BURST = 40;
  public static final long BURST_TASK_NS = 2_000_000;
  public static final int SCHEDULED = 5;
  public static final long DELAY_MS = 30;
  public static final int PERIODIC_RUNS = 4;
  public static final int TAIL = 3;

  public static void main(String[] args) throws Exception {
    // Netty would use sun.misc.Unsafe, which JDK 24 and later warn about on stderr.
    System.setProperty("io.netty.noUnsafe", "true");
    EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("loop"));
    EventLoop loop = group.next();
    loop.submit(() -> {}).sync(); // the loop's thread is started

    long[] queued = new long[BURST];
    long[] started = new long[BURST];
    CountDownLatch burst = new CountDownLatch(BURST);
    for (int i = 0; i < BURST; i++) {
      int k = i;
      queued[k] = System.nanoTime();
      loop.execute(
          () -> {
            started[k] = System.nanoTime();
            PoolWork.computeFor(BURST_TASK_NS);
            burst.countDown();
          });
    }
    burst.await();
    long waited = 0;
    for (int i = 0; i < BURST; i++) {
      waited += started[i] - queued[i];
    }
    Files.writeString(Path.of(args[0]), waited + "\n");

    CountDownLatch others = new CountDownLatch(SCHEDULED + PERIODIC_RUNS + TAIL);
    for (int i = 0; i < SCHEDULED; i++) {
      loop.schedule(others::countDown, DELAY_MS, TimeUnit.MILLISECONDS);
    }
    // The periodic task cancels itself on the loop: cancelled from another thread, Netty queues
    // the task object once more to take it out of the scheduled queue, which may find it queued
    // already (one object queued twice, which identities cannot tell apart).
    AtomicInteger runs = new AtomicInteger();
    AtomicReference<ScheduledFuture<?>> periodic = new AtomicReference<>();
    CountDownLatch scheduled = new CountDownLatch(1);
    periodic.set(
        loop.scheduleAtFixedRate(
            () -> {
              awaitQuietly(scheduled);
              if (runs.incrementAndGet() == PERIODIC_RUNS) {
                periodic.get().cancel(false);
              }
              others.countDown();
            },
            5,
            5,
            TimeUnit.MILLISECONDS));
    scheduled.countDown();
    for (int i = 0; i < TAIL; i++) {
      ((SingleThreadEventLoop) loop).executeAfterEventLoopIteration(others::countDown);
    }
    others.await();

    group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
    PoolWork.printRejection(loop);
    System.out.println("ran " + (BURST - burst.getCount()));
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private NettyEventLoopApp() {}
}
