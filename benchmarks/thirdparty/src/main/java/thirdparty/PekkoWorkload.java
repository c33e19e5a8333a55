package thirdparty;

import java.time.Duration;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Apache Pekko (typed actors): scatter-gather. Each round main asks a master actor for a sum; the
 * master sends 400 work items round-robin to 8 worker actors, each a CPU-bound piece of 0.05-0.25
 * ms, and answers once every result is back. The actors run on Pekko's default dispatcher (a
 * ForkJoinPool of Pekko's, 8 threads on 2 cores): its threads idle in the pool between messages,
 * and main waits for each answer in CompletableFuture.get(). The driver times each get().
 */
final class PekkoWorkload {
  static final int WORKERS = 8;
  static final int ITEMS = 400;

  interface MasterMsg {}

  record Compute(int round, ActorRef<Long> replyTo) implements MasterMsg {}

  record Result(long value) implements MasterMsg {}

  record Work(int item, int round, ActorRef<MasterMsg> replyTo) {}

  static void run(double scale) throws Exception {
    int rounds = (int) (100 * scale);
    ActorSystem<MasterMsg> system = ActorSystem.create(master(), "bench");
    long checksum = 0;
    try {
      for (int r = 0; r < rounds; r++) {
        int round = r;
        long t0 = System.nanoTime();
        long sum =
            AskPattern.<MasterMsg, Long>ask(
                    system,
                    replyTo -> new Compute(round, replyTo),
                    Duration.ofSeconds(60),
                    system.scheduler())
                .toCompletableFuture()
                .get();
        Truth.add("ask", System.nanoTime() - t0);
        checksum += sum;
      }
    } finally {
      Truth.print("pekko", "bench-pekko.actor.default-dispatcher-", "main");
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get();
    }
    if (checksum == 42) System.out.println(); // keep the work
  }

  private static Behavior<MasterMsg> master() {
    return Behaviors.setup(
        ctx -> {
          @SuppressWarnings("unchecked")
          ActorRef<Work>[] workers = new ActorRef[WORKERS];
          for (int i = 0; i < WORKERS; i++) {
            workers[i] = ctx.spawn(worker(), "worker-" + i);
          }
          long[] state = new long[2]; // results still due, sum so far
          @SuppressWarnings("unchecked")
          ActorRef<Long>[] asker = new ActorRef[1];
          return Behaviors.receive(MasterMsg.class)
              .onMessage(
                  Compute.class,
                  c -> {
                    asker[0] = c.replyTo();
                    state[0] = ITEMS;
                    state[1] = 0;
                    for (int i = 0; i < ITEMS; i++) {
                      workers[i % WORKERS].tell(new Work(i, c.round(), ctx.getSelf()));
                    }
                    return Behaviors.same();
                  })
              .onMessage(
                  Result.class,
                  res -> {
                    state[1] += res.value();
                    if (--state[0] == 0) {
                      asker[0].tell(state[1]);
                    }
                    return Behaviors.same();
                  })
              .build();
        });
  }

  private static Behavior<Work> worker() {
    return Behaviors.receive(Work.class)
        .onMessage(
            Work.class,
            w -> {
              w.replyTo().tell(new Result(element(w.item(), w.round())));
              return Behaviors.same();
            })
        .build();
  }

  private static long element(int i, int round) {
    return spin(50_000L + (long) ((i * 7919L + round) % 5) * 50_000L);
  }

  /** About {@code ns} of CPU work; returns something that depends on all of it. */
  private static long spin(long ns) {
    long end = System.nanoTime() + ns;
    long x = ns;
    while (System.nanoTime() < end) {
      x = x * 6364136223846793005L + 1442695040888963407L;
    }
    return x & 0xFF;
  }

  private PekkoWorkload() {}
}
