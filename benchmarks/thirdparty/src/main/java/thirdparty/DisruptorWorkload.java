package thirdparty;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * LMAX Disruptor: one producer, ring of 256 slots, BlockingWaitStrategy; two parallel handlers
 * (fast: ~1 us, slow: ~6 us per event) and a third that runs after both (a dependency barrier).
 * The slow handler limits throughput: the producer waits for free slots inside the Disruptor
 * (parkNanos loop), the fast handlers wait for events in the wait strategy.
 */
final class DisruptorWorkload {
  static final class Ev {
    long v;
  }

  static volatile long sink;

  static void spin(long ns) {
    long end = System.nanoTime() + ns;
    long x = 0;
    while (System.nanoTime() < end) x++;
    sink += x;
  }

  static void run(double scale) throws Exception {
    long events = (long) (400_000 * scale);
    AtomicInteger n = new AtomicInteger();
    Disruptor<Ev> d = new Disruptor<>(Ev::new, 256,
        r -> new Thread(r, "disruptor-handler-" + n.getAndIncrement()),
        ProducerType.SINGLE, new BlockingWaitStrategy());
    AtomicLong done = new AtomicLong();
    EventHandler<Ev> fast = (e, seq, end) -> spin(1_000);
    EventHandler<Ev> slow = (e, seq, end) -> spin(6_000);
    EventHandler<Ev> last = (e, seq, end) -> {
      if (end) done.set(seq + 1);
      if (seq + 1 == events) Truth.threadDone();
    };
    d.handleEventsWith(fast, slow).then(last);
    RingBuffer<Ev> rb = d.start();
    Thread producer = new Thread(() -> {
      long pubNs = 0;
      for (long i = 0; i < events; i++) {
        long t0 = System.nanoTime();
        long seq = rb.next();
        pubNs += System.nanoTime() - t0;
        rb.get(seq).v = i;
        rb.publish(seq);
      }
      Truth.add("producer.next", pubNs);
      Truth.threadDone();
    }, "disruptor-producer");
    long t0 = System.nanoTime();
    producer.start();
    producer.join();
    while (done.get() < events) Thread.onSpinWait();
    Truth.add("driver_total", System.nanoTime() - t0);
    Truth.print("disruptor", "disruptor-producer", "disruptor-handler-", "main");
    d.shutdown();
  }

  private DisruptorWorkload() {}
}
