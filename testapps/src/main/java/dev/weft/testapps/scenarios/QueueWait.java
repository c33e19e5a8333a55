package dev.weft.testapps.scenarios;

import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A producer and consumers around one bounded {@code ArrayBlockingQueue} of {@code --capacity}: the
 * {@code producer} thread works {@code --produce-ms} per item and {@code put}s it; each of the
 * {@code --consumers} threads ({@code consumer-<i>}) {@code take}s {@code --items} items and works
 * {@code --consume-ms} on each. With production slower than consumption the consumers wait in
 * {@code take}; the other way round the producer waits in {@code put} for room. The truth is each
 * thread's time inside those calls ({@link TruthKinds#CONDITION_WAIT_NS}), and the producer's
 * {@link TruthKinds#DELAY_COST_CONDITION_NS}: of each take that began before the put of the item it
 * got, the time from the take's start to that put's start (the hand-over that ended it).
 */
public final class QueueWait implements Scenario {
  @Override
  public String name() {
    return "queue-wait";
  }

  @Override
  public String summary() {
    return "a producer and consumers waiting in a bounded BlockingQueue's put and take";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("consumers", 2, 1, 64, "consuming threads"),
        OptionSpec.integer("items", 10, 1, 1_000_000, "items each consumer takes"),
        OptionSpec.integer("capacity", 2, 1, 1_000_000, "the queue's capacity"),
        OptionSpec.integer("produce-ms", 4, 0, 60_000, "the producer's work per item"),
        OptionSpec.integer("consume-ms", 2, 0, 60_000, "a consumer's work per item"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int consumers = context.options().intValue("consumers");
    int items = context.options().intValue("items");
    int capacity = context.options().intValue("capacity");
    long produceMs = context.options().longValue("produce-ms");
    long consumeMs = context.options().longValue("consume-ms");
    Truth truth = context.truth();
    Work work = context.work();
    // An element is {item, its index}; the producer notes when each put began (the put
    // happens-before the take that gets the element, so the consumer sees the note).
    BlockingQueue<long[]> queue = new ArrayBlockingQueue<>(capacity);
    long[] putStarts = new long[items * consumers];
    long[] checksums = new long[consumers + 1];
    List<String> names = new ArrayList<>(Team.names("consumer", consumers));
    names.add("producer");
    for (String name : names) {
      truth.add(TruthKinds.DELAY_COST_CONDITION_NS, name, 0);
    }
    Team.run(
        names,
        j -> {
          if (j == consumers) {
            for (int i = 0; i < items * consumers; i++) {
              long item = work.runBusy(produceMs, i, truth);
              long t0 = System.nanoTime();
              putStarts[i] = t0;
              queue.put(new long[] {item, i});
              truth.add(TruthKinds.CONDITION_WAIT_NS, System.nanoTime() - t0);
            }
          } else {
            for (int i = 0; i < items; i++) {
              long t0 = System.nanoTime();
              long[] element = queue.take();
              long t1 = System.nanoTime();
              truth.add(TruthKinds.CONDITION_WAIT_NS, t1 - t0);
              long putStart = putStarts[(int) element[1]];
              if (putStart > t0) {
                truth.add(
                    TruthKinds.DELAY_COST_CONDITION_NS, "producer", Math.min(t1, putStart) - t0);
              }
              long item = element[0];
              checksums[j] += item + work.runBusy(consumeMs, ~item, truth);
            }
          }
        },
        truth);
    long checksum = 0;
    for (long c : checksums) {
      checksum += c;
    }
    return Work.jsonSafe(checksum);
  }
}
