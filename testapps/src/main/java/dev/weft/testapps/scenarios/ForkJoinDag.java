package dev.weft.testapps.scenarios;

import dev.weft.testapps.NamedThreads;
import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.Work;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.TimeUnit;

/**
 * A fork-join graph with one long branch: the root task forks a {@code Branch} and {@code
 * --siblings} short {@code Sibling}s ({@code --sibling-ms} each), joins the siblings, then the
 * branch. The branch works {@code --branch-ms}, forks a {@code Leaf} ({@code --leaf-ms}), works
 * {@code --tail-ms} more and joins the leaf. On a {@link ForkJoinPool} of {@code --parallelism}
 * workers named {@code dag-<i>}.
 *
 * <p>The run's critical path is main up to {@code invoke}, the root up to its fork of the branch,
 * the branch up to its fork of the leaf (a fork that starts a worker thread included), the leaf,
 * the branch from the leaf's end, the root from the branch's end, and main from {@code invoke}'s
 * return. Which worker runs which task is up to the pool: the truth ({@link
 * TruthKinds#CRITICAL_PATH_NS}, pool workers only) is computed from the threads and times each task
 * recorded, a hand-over's latency counted for the thread it hands over to. Where a join did not
 * wait (the joiner was still busy when the joined task ended), the path stays on the joiner.
 */
public final class ForkJoinDag implements Scenario {
  /** The pool's name: its workers' name prefix. */
  public static final String POOL = "dag";

  @Override
  public String name() {
    return "fork-join-dag";
  }

  @Override
  public String summary() {
    return "a fork-join graph with one long branch: its critical path is known";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("parallelism", 3, 1, 64, "fork-join pool parallelism"),
        OptionSpec.integer("siblings", 2, 0, 64, "short tasks forked by the root"),
        OptionSpec.integer("sibling-ms", 5, 0, 60_000, "work of each sibling"),
        OptionSpec.integer("branch-ms", 20, 0, 60_000, "branch's work before forking the leaf"),
        OptionSpec.integer("leaf-ms", 20, 0, 60_000, "work of the leaf"),
        OptionSpec.integer("tail-ms", 5, 0, 60_000, "branch's work after forking the leaf"));
  }

  /** Times (System.nanoTime) and threads each task recorded; written before the joins read them. */
  static final class Log {
    volatile long warmUpSubmitted;
    volatile long warmUpAwaited;
    volatile long warmUpEnd;
    volatile String warmUpThread;
    volatile long invoked;
    volatile long rootBegin;
    volatile long branchForking;
    volatile long branchForked;
    volatile long rootJoinsBranch;
    volatile long rootEnd;
    volatile String root;
    volatile long branchEnd;
    volatile long leafForking;
    volatile long leafForked;
    volatile long branchJoinsLeaf;
    volatile String branch;
    volatile long leafEnd;
    volatile String leaf;
    volatile long terminated;
    final Set<String> workers = ConcurrentHashMap.newKeySet();
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int parallelism = context.options().intValue("parallelism");
    Truth truth = context.truth();
    Work work = context.work();
    Log log = new Log();
    Root root =
        new Root(
            context.options().intValue("siblings"),
            context.options().longValue("sibling-ms"),
            context.options().longValue("branch-ms"),
            context.options().longValue("leaf-ms"),
            context.options().longValue("tail-ms"),
            work,
            log);
    ForkJoinPool pool = NamedThreads.forkJoinPool(POOL, parallelism);
    // Start the first worker before the measured graph, so that invoke does not create it.
    // The others are started by the graph's own forks: a fork that starts a worker returns only
    // after the start, so the truth counts the path up to each fork's return.
    log.warmUpSubmitted = System.nanoTime();
    ForkJoinTask<?> warmUp =
        pool.submit(
            () -> {
              log.warmUpThread = Thread.currentThread().getName();
              log.warmUpEnd = System.nanoTime();
            });
    log.warmUpAwaited = System.nanoTime();
    warmUp.get();
    log.invoked = System.nanoTime();
    pool.invoke(root);
    pool.shutdown();
    pool.awaitTermination(1, TimeUnit.MINUTES);
    log.terminated = System.nanoTime();
    report(truth, log);
    return Work.jsonSafe(root.checksum);
  }

  /** The critical path's share per worker, from the recorded times (see the class comment). */
  private static void report(Truth truth, Log log) {
    Map<String, Long> onPath = new TreeMap<>();
    for (String worker : log.workers) {
      onPath.put(worker, 0L); // a worker that ran only siblings is off the path
    }
    if (log.warmUpEnd > log.warmUpAwaited) {
      // main waited for the first worker's start-up: that is on the path too.
      onPath.merge(log.warmUpThread, log.warmUpEnd - log.warmUpSubmitted, Long::sum);
    }
    boolean viaBranch = log.branchEnd > log.rootJoinsBranch;
    boolean viaLeaf = !log.leaf.equals(log.branch) && log.leafEnd > log.branchJoinsLeaf;
    if (viaBranch) {
      onPath.merge(
          log.root, (log.branchForked - log.invoked) + (log.rootEnd - log.branchEnd), Long::sum);
      if (viaLeaf) {
        onPath.merge(
            log.branch,
            (log.leafForked - log.branchForked) + (log.branchEnd - log.leafEnd),
            Long::sum);
        onPath.merge(log.leaf, log.leafEnd - log.leafForked, Long::sum);
      } else {
        onPath.merge(log.branch, log.branchEnd - log.branchForked, Long::sum);
      }
    } else {
      onPath.merge(log.root, log.rootEnd - log.invoked, Long::sum);
    }
    onPath.forEach((thread, ns) -> truth.add(TruthKinds.CRITICAL_PATH_NS, thread, ns));
    // Time the truth and a trace may give to different threads (see TruthKinds).
    Map<String, Long> ambiguous = new TreeMap<>();
    if (log.warmUpEnd > log.warmUpAwaited) {
      // main's submission of the warm-up task (it starts the first worker)
      ambiguous.merge(log.warmUpThread, log.warmUpAwaited - log.warmUpSubmitted, Long::sum);
    }
    // main's invoke of the root, which the truth counts for the root's thread from its call, and a
    // trace from the root's push
    ambiguous.merge(log.root, log.rootBegin - log.invoked, Long::sum);
    if (viaBranch) {
      long fork = log.branchForked - log.branchForking;
      ambiguous.merge(log.root, fork, Long::sum);
      ambiguous.merge(log.branch, fork, Long::sum);
      if (viaLeaf) {
        long leafFork = log.leafForked - log.leafForking;
        ambiguous.merge(log.branch, leafFork, Long::sum);
        ambiguous.merge(log.leaf, leafFork, Long::sum);
      }
    }
    // main's wait for the pool's termination, which the last worker to exit ends
    for (String worker : log.workers) {
      ambiguous.merge(worker, log.terminated - log.rootEnd, Long::sum);
    }
    ambiguous.forEach((thread, ns) -> truth.add(TruthKinds.CRITICAL_PATH_AMBIGUOUS_NS, thread, ns));
  }

  /** Work inside a task, which cannot throw the interruption of a sleep. */
  static long run(Work work, long ms, long seed) {
    try {
      return work.run(ms, seed);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The root: forks the branch and the siblings, joins the siblings, then the branch. */
  static final class Root extends RecursiveAction {
    private static final long serialVersionUID = 1L;
    private final int siblings;
    private final long siblingMs;
    private final long branchMs;
    private final long leafMs;
    private final long tailMs;
    private final transient Work work;
    private final transient Log log;
    long checksum;

    Root(int siblings, long siblingMs, long branchMs, long leafMs, long tailMs, Work w, Log log) {
      this.siblings = siblings;
      this.siblingMs = siblingMs;
      this.branchMs = branchMs;
      this.leafMs = leafMs;
      this.tailMs = tailMs;
      this.work = w;
      this.log = log;
    }

    @Override
    protected void compute() {
      log.rootBegin = System.nanoTime();
      log.root = Thread.currentThread().getName();
      log.workers.add(log.root);
      Branch branch = new Branch(branchMs, leafMs, tailMs, work, log);
      log.branchForking = System.nanoTime();
      branch.fork();
      log.branchForked = System.nanoTime();
      Sibling[] others = new Sibling[siblings];
      for (int i = 0; i < siblings; i++) {
        others[i] = new Sibling(siblingMs, i, work, log.workers);
        others[i].fork();
      }
      for (int i = siblings - 1; i >= 0; i--) {
        others[i].join();
        checksum += others[i].checksum;
      }
      log.rootJoinsBranch = System.nanoTime();
      branch.join();
      checksum += branch.checksum;
      log.rootEnd = System.nanoTime();
    }
  }

  /** The long branch: works, forks the leaf, works a little more, joins the leaf. */
  static final class Branch extends RecursiveAction {
    private static final long serialVersionUID = 1L;
    private final long branchMs;
    private final long leafMs;
    private final long tailMs;
    private final transient Work work;
    private final transient Log log;
    long checksum;

    Branch(long branchMs, long leafMs, long tailMs, Work work, Log log) {
      this.branchMs = branchMs;
      this.leafMs = leafMs;
      this.tailMs = tailMs;
      this.work = work;
      this.log = log;
    }

    @Override
    protected void compute() {
      log.branch = Thread.currentThread().getName();
      log.workers.add(log.branch);
      checksum = run(work, branchMs, 1_000);
      Leaf leaf = new Leaf(leafMs, work, log);
      log.leafForking = System.nanoTime();
      leaf.fork();
      log.leafForked = System.nanoTime();
      checksum += run(work, tailMs, 1_001);
      log.branchJoinsLeaf = System.nanoTime();
      leaf.join();
      checksum += leaf.checksum;
      log.branchEnd = System.nanoTime();
    }
  }

  /** The leaf of the long branch. */
  static final class Leaf extends RecursiveAction {
    private static final long serialVersionUID = 1L;
    private final long ms;
    private final transient Work work;
    private final transient Log log;
    long checksum;

    Leaf(long ms, Work work, Log log) {
      this.ms = ms;
      this.work = work;
      this.log = log;
    }

    @Override
    protected void compute() {
      log.leaf = Thread.currentThread().getName();
      log.workers.add(log.leaf);
      checksum = run(work, ms, 2_000);
      log.leafEnd = System.nanoTime();
    }
  }

  /** A short task forked by the root. */
  static final class Sibling extends RecursiveAction {
    private static final long serialVersionUID = 1L;
    private final long ms;
    private final int index;
    private final transient Work work;
    private final transient Set<String> workers;
    long checksum;

    Sibling(long ms, int index, Work work, Set<String> workers) {
      this.ms = ms;
      this.index = index;
      this.work = work;
      this.workers = workers;
    }

    @Override
    protected void compute() {
      workers.add(Thread.currentThread().getName());
      checksum = run(work, ms, index);
    }
  }
}
