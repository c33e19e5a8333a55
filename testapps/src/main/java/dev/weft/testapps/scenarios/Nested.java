package dev.weft.testapps.scenarios;

import dev.weft.testapps.JoinClock;
import dev.weft.testapps.NamedThreads;
import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.PoolTimeline;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.TaskTimes;
import dev.weft.testapps.Team;
import dev.weft.testapps.TrackedThreadFactory;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.UsageException;
import dev.weft.testapps.Work;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Two shapes Scalasca cannot analyse, run one after the other ({@code --part} picks one):
 *
 * <ul>
 *   <li>streams in tasks: a {@link RecursiveTask} over {@code --groups} groups on a fork-join pool
 *       ({@code fj-<i>}); each group runs a parallel stream over {@code --elements} elements of
 *       {@code --element-ms}, which forks into the same pool (nested parallelism);
 *   <li>varying team: a fixed pool of {@code --team-threads} workers ({@code team-<i>}) runs one
 *       parallel region per entry of {@code --teams}, region {@code k} as {@code teams[k]} tasks of
 *       {@code --region-ms} while main waits, so the active team size changes between regions.
 * </ul>
 */
public final class Nested implements Scenario {
  /** Name of the fork-join pool and prefix of its workers. */
  public static final String FJ_POOL = "fj";

  /** Name of the fixed pool and prefix of its workers. */
  public static final String TEAM_POOL = "team";

  @Override
  public String name() {
    return "nested";
  }

  @Override
  public String summary() {
    return "parallel streams inside fork-join tasks; a pool whose active team size varies";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.choice(
            "part", "all", List.of("all", "streams-in-tasks", "varying-team"), "which part to run"),
        OptionSpec.integer("parallelism", 2, 1, 64, "fork-join pool parallelism"),
        OptionSpec.integer("groups", 4, 1, 10_000, "fork-join tasks, one stream each"),
        OptionSpec.integer("elements", 4, 1, 10_000, "stream elements per group"),
        OptionSpec.integer("element-ms", 5, 0, 60_000, "work per stream element"),
        OptionSpec.integer("team-threads", 4, 1, 64, "threads of the fixed pool"),
        OptionSpec.integerList("teams", "1,2,4,3", 1, 64, "active team size of each region"),
        OptionSpec.integer("region-ms", 10, 0, 60_000, "work per task in a region"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    String part = context.options().choice("part");
    Map<String, Object> result = new LinkedHashMap<>();
    long checksum = 0;
    if (!part.equals("varying-team")) {
      checksum += streamsInTasks(context, result);
    }
    if (!part.equals("streams-in-tasks")) {
      checksum += varyingTeam(context, result);
    }
    result.put("checksum", Work.jsonSafe(checksum));
    return result;
  }

  private long streamsInTasks(ScenarioContext context, Map<String, Object> result)
      throws Exception {
    int parallelism = context.options().intValue("parallelism");
    int groups = context.options().intValue("groups");
    int elements = context.options().intValue("elements");
    long elementMs = context.options().longValue("element-ms");
    Truth truth = context.truth();
    JoinClock clock = new JoinClock();

    ForkJoinPool pool = NamedThreads.forkJoinPool(FJ_POOL, parallelism);
    GroupsTask root = new GroupsTask(0, groups, elements, elementMs, context.work(), truth, clock);
    long checksum = clock.join(() -> pool.invoke(root), truth);
    pool.shutdown();
    long t0 = System.nanoTime();
    pool.awaitTermination(1, TimeUnit.MINUTES);
    truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
    result.put("elements", (long) groups * elements);
    return checksum;
  }

  private long varyingTeam(ScenarioContext context, Map<String, Object> result) throws Exception {
    int threads = context.options().intValue("team-threads");
    List<Long> teams = context.options().longList("teams");
    long regionMs = context.options().longValue("region-ms");
    for (long size : teams) {
      if (size > threads) {
        throw new UsageException(
            "option --teams: team size " + size + " exceeds --team-threads " + threads);
      }
    }
    Truth truth = context.truth();
    Work work = context.work();
    List<String> workers = Team.names(TEAM_POOL, threads);

    // Tasks are made before the pool starts, so that lambda linkage never counts as waiting.
    List<List<TaskTimes>> rounds = new ArrayList<>();
    List<List<Callable<Long>>> bodies = new ArrayList<>();
    int taskNumber = 0;
    for (int k = 0; k < teams.size(); k++) {
      String region = "region-" + k;
      for (String worker : workers) {
        truth.addRegionMember(region, worker);
      }
      List<TaskTimes> round = new ArrayList<>();
      List<Callable<Long>> roundBodies = new ArrayList<>();
      for (int i = 0; i < teams.get(k); i++) {
        TaskTimes times = new TaskTimes("task-" + taskNumber);
        long seed = taskNumber++;
        round.add(times);
        roundBodies.add(
            () -> {
              long t0 = times.began();
              long c = work.run(regionMs, seed);
              long spent = times.ended() - t0;
              truth.add(TruthKinds.BUSY_NS, spent);
              truth.addRegionBusy(region, spent);
              return c;
            });
      }
      rounds.add(round);
      bodies.add(roundBodies);
    }

    TrackedThreadFactory threadFactory = new TrackedThreadFactory(TEAM_POOL, threads);
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), threadFactory);
    pool.prestartAllCoreThreads();
    long checksum = 0;
    for (int k = 0; k < teams.size(); k++) {
      List<Future<Long>> futures = new ArrayList<>();
      for (int i = 0; i < teams.get(k); i++) {
        rounds.get(k).get(i).submitted();
        futures.add(pool.submit(bodies.get(k).get(i)));
      }
      for (Future<Long> f : futures) {
        long t0 = System.nanoTime();
        checksum += f.get();
        truth.add(TruthKinds.JOIN_WAIT_NS, System.nanoTime() - t0);
      }
    }
    pool.shutdown();
    threadFactory.joinAll(truth);
    PoolTimeline.report(truth, TEAM_POOL, threadFactory, rounds);
    result.put("team_sizes", teams);
    return checksum;
  }

  /** Splits groups [lo, hi) in halves; a single group runs its parallel stream. */
  static final class GroupsTask extends RecursiveTask<Long> {
    private static final long serialVersionUID = 1L;

    private final int lo;
    private final int hi;
    private final int elements;
    private final long elementMs;
    private final transient Work work;
    private final transient Truth truth;
    private final transient JoinClock clock;

    GroupsTask(
        int lo, int hi, int elements, long elementMs, Work work, Truth truth, JoinClock clock) {
      this.lo = lo;
      this.hi = hi;
      this.elements = elements;
      this.elementMs = elementMs;
      this.work = work;
      this.truth = truth;
      this.clock = clock;
    }

    @Override
    protected Long compute() {
      long started = clock.taskStarted();
      try {
        if (hi - lo == 1) {
          // Called inside a fork-join worker, the stream forks into this task's own pool.
          return IntStream.range(0, elements)
              .parallel()
              .mapToLong(e -> element((long) lo * elements + e))
              .sum();
        }
        int mid = (lo + hi) >>> 1;
        GroupsTask left = new GroupsTask(lo, mid, elements, elementMs, work, truth, clock);
        GroupsTask right = new GroupsTask(mid, hi, elements, elementMs, work, truth, clock);
        left.fork();
        long r = right.compute();
        return clock.join(left::join, truth) + r;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      } finally {
        clock.taskEnded(started);
      }
    }

    /**
     * One stream element. A worker joining a group task may run elements of another group's stream
     * meanwhile (helping): the clock takes that time out of its join wait.
     */
    private long element(long seed) {
      long started = clock.taskStarted();
      long t0 = System.nanoTime();
      long checksum;
      try {
        checksum = work.run(elementMs, seed);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } finally {
        clock.taskEnded(started);
      }
      truth.add(TruthKinds.BUSY_NS, System.nanoTime() - t0);
      truth.add(TruthKinds.ELEMENTS, 1);
      return checksum;
    }
  }
}
