package dev.weft.agent.weave;

import dev.weft.agent.constructs.BlockingQueues;
import dev.weft.agent.constructs.CompletableFutures;
import dev.weft.agent.constructs.Conditions;
import dev.weft.agent.constructs.CoroutineSchedulers;
import dev.weft.agent.constructs.CountDownLatches;
import dev.weft.agent.constructs.CyclicBarriers;
import dev.weft.agent.constructs.ExecutorSites;
import dev.weft.agent.constructs.ExecutorTasks;
import dev.weft.agent.constructs.ForkJoinSites;
import dev.weft.agent.constructs.ForkJoinTasks;
import dev.weft.agent.constructs.FutureSites;
import dev.weft.agent.constructs.JBossThreadPools;
import dev.weft.agent.constructs.JdkSelectorLoops;
import dev.weft.agent.constructs.JdkTimerThreads;
import dev.weft.agent.constructs.JettyThreadPools;
import dev.weft.agent.constructs.Monitors;
import dev.weft.agent.constructs.NettyEventLoops;
import dev.weft.agent.constructs.NetworkWaits;
import dev.weft.agent.constructs.ParallelStreams;
import dev.weft.agent.constructs.Phasers;
import dev.weft.agent.constructs.QuartzThreadPools;
import dev.weft.agent.constructs.ReadWriteLocks;
import dev.weft.agent.constructs.ReentrantLocks;
import dev.weft.agent.constructs.RunningBarriers;
import dev.weft.agent.constructs.RunningConditions;
import dev.weft.agent.constructs.RunningForkJoins;
import dev.weft.agent.constructs.RunningFutures;
import dev.weft.agent.constructs.RunningLatches;
import dev.weft.agent.constructs.RunningLocks;
import dev.weft.agent.constructs.RunningNetworkWaits;
import dev.weft.agent.constructs.RunningPhasers;
import dev.weft.agent.constructs.RunningPoolWorkers;
import dev.weft.agent.constructs.RunningReadWriteLocks;
import dev.weft.agent.constructs.RunningSemaphores;
import dev.weft.agent.constructs.RunningStampedLocks;
import dev.weft.agent.constructs.RunningThreadJoins;
import dev.weft.agent.constructs.RunningThreadStarts;
import dev.weft.agent.constructs.Semaphores;
import dev.weft.agent.constructs.SocketReads;
import dev.weft.agent.constructs.Spins;
import dev.weft.agent.constructs.StampedLocks;
import dev.weft.agent.constructs.SynchronizedFlags;
import dev.weft.agent.constructs.Synchronizers;
import dev.weft.agent.constructs.ThreadJoins;
import dev.weft.agent.constructs.Threads;
import dev.weft.agent.constructs.TomcatThreadPools;
import dev.weft.agent.constructs.UserRegions;
import dev.weft.agent.constructs.VirtualThreads;
import dev.weft.agent.constructs.Waits;
import java.util.List;

/** The registry of construct instrumentations: one line per family. */
public final class Constructs {
  private Constructs() {}

  /** Every instrumentation the agent knows; {@code constructs=} selects among them by family. */
  public static List<ConstructInstrumentation> all() {
    return List.of(
        new UserRegions(),
        // Before any family that adds locals: a rewritten synchronized method keeps its monitor in
        // a slot that later visitors must see in use (see Monitors).
        new Monitors(),
        new SynchronizedFlags(),
        new ReentrantLocks(),
        new ReadWriteLocks(),
        new StampedLocks(),
        new Semaphores(),
        new CyclicBarriers(),
        new Phasers(),
        new CountDownLatches(),
        new Waits(),
        new Conditions(),
        new JdkTimerThreads(),
        new Synchronizers(),
        new BlockingQueues(),
        new NetworkWaits(),
        new SocketReads(),
        new JdkSelectorLoops(),
        new RunningNetworkWaits(),
        new Spins(),
        new ForkJoinTasks(),
        new ForkJoinSites(),
        new ParallelStreams(),
        new ExecutorTasks(),
        new ExecutorSites(),
        new CoroutineSchedulers(),
        new QuartzThreadPools(),
        new TomcatThreadPools(),
        new JBossThreadPools(),
        new JettyThreadPools(),
        new NettyEventLoops(),
        new CompletableFutures(),
        new FutureSites(),
        new ThreadJoins(),
        new Threads(),
        // Mounts need no weaving (the recorder finds a virtual thread's carrier itself); this is
        // the virtual threads' THREAD_BEGIN/END.
        new VirtualThreads(),
        // Attached agents only: waits in frames that were running before the attach.
        new RunningLocks(),
        new RunningBarriers(),
        new RunningConditions(),
        new RunningSemaphores(),
        new RunningReadWriteLocks(),
        new RunningStampedLocks(),
        new RunningLatches(),
        new RunningPhasers(),
        new RunningThreadJoins(),
        new RunningThreadStarts(),
        new RunningFutures(),
        new RunningForkJoins(),
        new RunningPoolWorkers());
  }
}
