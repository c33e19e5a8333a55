package dev.weft.testapps;

import dev.weft.testapps.scenarios.BarrierImbalance;
import dev.weft.testapps.scenarios.DelayChain;
import dev.weft.testapps.scenarios.ExecutorQueue;
import dev.weft.testapps.scenarios.ForkJoinDag;
import dev.weft.testapps.scenarios.ForkJoinImbalance;
import dev.weft.testapps.scenarios.FutureWait;
import dev.weft.testapps.scenarios.GateWait;
import dev.weft.testapps.scenarios.Hello;
import dev.weft.testapps.scenarios.IdleThreads;
import dev.weft.testapps.scenarios.LockContention;
import dev.weft.testapps.scenarios.LockConvoy;
import dev.weft.testapps.scenarios.Nested;
import dev.weft.testapps.scenarios.NetworkWait;
import dev.weft.testapps.scenarios.NotifyChain;
import dev.weft.testapps.scenarios.ParallelStream;
import dev.weft.testapps.scenarios.QueueWait;
import dev.weft.testapps.scenarios.Regions;
import dev.weft.testapps.scenarios.SparseCg;
import dev.weft.testapps.scenarios.SpinBarrier;
import java.util.List;
import java.util.Optional;

/** The list of scenarios, in the order {@code --help} shows them. */
public final class Scenarios {
  private static final List<Scenario> ALL =
      List.of(
          new Hello(),
          new Regions(),
          new IdleThreads(),
          new BarrierImbalance(),
          new SpinBarrier(),
          new LockContention(),
          new LockConvoy(),
          new NotifyChain(),
          new GateWait(),
          new QueueWait(),
          new NetworkWait(),
          new DelayChain(),
          new ForkJoinImbalance(),
          new ForkJoinDag(),
          new ParallelStream(),
          new ExecutorQueue(),
          new FutureWait(),
          new SparseCg(),
          new Nested());

  private Scenarios() {}

  /** Every scenario. */
  public static List<Scenario> all() {
    return ALL;
  }

  /** The scenario called {@code name}, if any. */
  public static Optional<Scenario> find(String name) {
    return ALL.stream().filter(s -> s.name().equals(name)).findFirst();
  }
}
