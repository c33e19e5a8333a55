package dev.weft.agent.weave;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TransferQueue;
import java.util.concurrent.locks.AbstractQueuedLongSynchronizer;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import java.util.function.ToIntFunction;

/** Calls of the wait and spin families' targets, directly and through method references. */
public final class WaitSamples {
  private WaitSamples() {}

  /** An action on a long that may throw anything. */
  public interface LongAction {
    void run(long value) throws Exception;
  }

  /** An action that may throw anything. */
  public interface Action {
    void run() throws Exception;
  }

  public static String objectWait(Object monitor) throws Exception {
    synchronized (monitor) {
      monitor.wait(1);
      Runnable notifyAll = monitor::notifyAll;
      notifyAll.run();
    }
    return "woke";
  }

  public static void waitWithoutMonitor(Object monitor) throws Exception {
    Action wait = monitor::wait;
    wait.run();
  }

  public static String sleepAndPark() throws Exception {
    LongAction sleep = Thread::sleep;
    sleep.run(1);
    LockSupport.unpark(Thread.currentThread());
    LongConsumer park = LockSupport::parkNanos;
    park.accept(1_000_000);
    return "rested";
  }

  public static void sleepWhenInterrupted() throws Exception {
    Thread.currentThread().interrupt();
    Thread.sleep(1_000);
  }

  public static boolean conditionAwait(ReentrantLock lock, Condition condition) throws Exception {
    lock.lock();
    try {
      Runnable signal = condition::signal;
      signal.run();
      return condition.await(1, TimeUnit.MILLISECONDS);
    } finally {
      lock.unlock();
    }
  }

  public static void awaitWithoutLock(Condition condition) throws Exception {
    Action await = condition::await;
    await.run();
  }

  public static int spin() {
    Thread.onSpinWait();
    Runnable yield = Thread::yield;
    yield.run();
    return 2;
  }

  /** A latch of a library's own, as databases build them: open at count 0. */
  public static final class OwnLatch extends AbstractQueuedSynchronizer {
    public OwnLatch(int count) {
      setState(count);
    }

    @Override
    protected int tryAcquireShared(int ignored) {
      return getState() == 0 ? 1 : -1;
    }

    @Override
    protected boolean tryReleaseShared(int ignored) {
      for (; ; ) {
        int c = getState();
        if (c == 0) {
          return false;
        }
        if (compareAndSetState(c, c - 1)) {
          return c == 1;
        }
      }
    }
  }

  /** A mutex on the long synchronizer whose rule throws when asked to acquire 0. */
  public static final class OwnMutex extends AbstractQueuedLongSynchronizer {
    @Override
    protected boolean tryAcquire(long arg) {
      if (arg == 0) {
        throw new IllegalArgumentException("nothing to acquire");
      }
      return compareAndSetState(0, arg);
    }

    @Override
    protected boolean tryRelease(long arg) {
      setState(0);
      return true;
    }
  }

  /** Opens the latch, then acquires it directly, by reference and with a timeout. */
  public static boolean ownLatch(OwnLatch latch) throws Exception {
    latch.releaseShared(1);
    latch.acquireSharedInterruptibly(1);
    LongAction byReference = n -> latch.acquireShared((int) n);
    byReference.run(1);
    return latch.tryAcquireSharedNanos(1, 1_000);
  }

  /** A closed latch: the timed acquire times out. */
  public static boolean ownLatchTimesOut(OwnLatch latch) throws Exception {
    return latch.tryAcquireSharedNanos(1, 1_000_000);
  }

  /** A closed latch and an interrupted thread: the acquire throws. */
  public static void ownLatchWhenInterrupted(OwnLatch latch) throws Exception {
    Thread.currentThread().interrupt();
    latch.acquireSharedInterruptibly(1);
  }

  /** Acquires and releases the mutex, then makes its rule throw. */
  public static void ownMutex(OwnMutex mutex) {
    mutex.acquire(1);
    mutex.release(1);
    mutex.acquire(0);
  }

  /** Each blocking call of a queue, a deque and a transfer queue, and calls that never block. */
  public static Object queues(
      BlockingQueue<Object> queue, BlockingDeque<Object> deque, TransferQueue<Object> transfers)
      throws Exception {
    queue.put("a");
    queue.offer("b");
    Object first = queue.take();
    Object second = queue.poll(1, TimeUnit.MILLISECONDS);
    Object none = queue.poll();
    deque.putFirst("c");
    Object third = deque.takeLast();
    boolean taken = transfers.tryTransfer("d", 1, TimeUnit.MICROSECONDS);
    return "" + first + second + none + third + taken;
  }

  /**
   * Puts that never wait: offer and add into a queue of two (the third add finds it full and
   * throws), addFirst then offerLast into a deque of one (full: nothing put), tryTransfer with no
   * taker (nothing put).
   */
  public static Object handOvers(
      BlockingQueue<Object> queue, BlockingDeque<Object> deque, TransferQueue<Object> transfers) {
    boolean offered = queue.offer("a");
    queue.add("b");
    String full;
    try {
      queue.add("c");
      full = "room";
    } catch (IllegalStateException e) {
      full = "full";
    }
    deque.addFirst("d");
    boolean last = deque.offerLast("e");
    boolean transferred = transfers.tryTransfer("f");
    return "" + offered + full + last + transferred + queue + deque;
  }

  /** A job of a pool of the program's own: a class implementing Runnable. */
  public static final class Job implements Runnable {
    @Override
    public void run() {}
  }

  /**
   * A worker loop of a pool of the program's own: the take and the timed polls cast their element
   * to a task at once (Runnable, Callable, a class implementing Runnable); a String taken from the
   * same kind of queue, and a task kept as an Object, are not tasks.
   */
  public static Object taskTakes(
      BlockingQueue<Runnable> jobs,
      BlockingQueue<Callable<String>> calls,
      BlockingQueue<Job> own,
      BlockingQueue<String> words)
      throws Exception {
    jobs.put(() -> {});
    jobs.put(() -> {});
    calls.put(() -> "x");
    own.put(new Job());
    words.put("w");
    Runnable job = jobs.take();
    job.run();
    Callable<String> call = calls.poll(1, TimeUnit.MILLISECONDS);
    Job mine = own.poll(1, TimeUnit.MILLISECONDS);
    mine.run();
    String word = words.take();
    Object kept = jobs.take();
    return call.call() + word + (kept != null);
  }

  /** A take by reference on an empty queue, interrupted: it throws. */
  public static Object takeWhenInterrupted(ArrayBlockingQueue<Object> queue) throws Exception {
    Callable<Object> take = queue::take;
    Thread.currentThread().interrupt();
    return take.call();
  }

  /** A queue of the program's own: its put is a wait however much room there is. */
  public static final class OwnQueue extends ArrayBlockingQueue<Object> {
    public OwnQueue() {
      super(4);
    }
  }

  /** A put into a full queue (which another thread empties), then into an own queue. */
  public static Object putsThatWait(ArrayBlockingQueue<Object> full, OwnQueue own)
      throws Exception {
    full.put("b");
    own.put("c");
    return "" + full.peek() + own.peek();
  }

  /** An interrupted thread's put into a queue with room: it throws, as unwoven. */
  public static void putWhenInterrupted(ArrayBlockingQueue<Object> queue) throws Exception {
    Thread.currentThread().interrupt();
    queue.put("a");
  }

  /**
   * A selector's select with a timeout, one through a method reference, and selectNow, which never
   * blocks.
   */
  public static Object selects(Selector selector) throws Exception {
    int now = selector.selectNow();
    int timed = selector.select(1);
    ToIntFunction<Long> select =
        ms -> {
          try {
            return selector.select(ms);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        };
    return now + timed + select.applyAsInt(1L);
  }

  /** Accepts that time out: a server socket's and a non-blocking channel's, which returns null. */
  public static Object accepts(ServerSocket server, ServerSocketChannel channel) throws Exception {
    server.setSoTimeout(1);
    String socket;
    try {
      socket = "accepted " + server.accept();
    } catch (SocketTimeoutException e) {
      socket = "timed out";
    }
    channel.configureBlocking(false);
    return socket + " " + channel.accept();
  }

  /** An HTTP exchange refused by a closed port: the send throws. */
  public static Object httpSendRefused(HttpClient client) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:1/")).build();
    try {
      return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return "refused";
    }
  }
}
