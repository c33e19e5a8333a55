package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Invoke;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import java.util.List;
import java.util.Set;

/**
 * Waits for futures in application code, woven where the user wrote them (family {@code futures}):
 * {@code future.get()}, {@code get(timeout)} and {@code CompletableFuture.join()} are join waits
 * (JOIN_WAIT_ENTER/EXIT, the future as target), also when they throw. Fork-join tasks used as
 * futures are left to {@link ForkJoinSites}. {@code CompletableFuture.supplyAsync} and {@code
 * runAsync} calls are regions of their own (ENTER/EXIT at the user's line), within which the first
 * stage's task is created.
 */
public final class FutureSites extends ApplicationCallSites {
  private static final String COMPLETABLE = "java/util/concurrent/CompletableFuture";
  private static final Set<String> FUTURES =
      Set.of(
          "java/util/concurrent/Future",
          "java/util/concurrent/RunnableFuture",
          "java/util/concurrent/ScheduledFuture",
          "java/util/concurrent/RunnableScheduledFuture",
          "java/util/concurrent/FutureTask",
          COMPLETABLE);
  private static final Set<String> COMPLETABLES = Set.of(COMPLETABLE);
  private static final Set<String> FORK_JOIN_TASKS =
      Set.of(
          Brackets.FORK_JOIN_TASK,
          "java/util/concurrent/RecursiveTask",
          "java/util/concurrent/RecursiveAction",
          "java/util/concurrent/CountedCompleter");

  // Rows of the table, made by bracket(row, call).
  private static final int ASYNC = 0;
  private static final int GET = 1;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.exactly(COMPLETABLE))
          .call(Invoke.STATIC, "supplyAsync", ASYNC)
          .call(Invoke.STATIC, "runAsync", ASYNC)
          .owners(Owners.orSubtypes(FUTURES))
          .call("get()Ljava/lang/Object;", GET)
          .call("get(JLjava/util/concurrent/TimeUnit;)Ljava/lang/Object;", GET)
          .owners(Owners.orSubtypes(COMPLETABLES))
          .call("join()Ljava/lang/Object;", GET)
          .build();

  @Override
  public Family family() {
    return Family.FUTURES;
  }

  @Override
  public List<String> applicationHints() {
    return List.of("java/util/concurrent/");
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case ASYNC:
        return async(c);
      case GET:
        return get(c);
      default:
        return null;
    }
  }

  private static Bracket async(ApplicationCallSites.Call c) {
    return Brackets.construct(
        c.region(ConstructKind.COMPLETABLE_FUTURE, "CompletableFuture." + c.name));
  }

  /** A join wait for the receiver; fork-join tasks used as futures are left to ForkJoinSites. */
  private static Bracket get(ApplicationCallSites.Call c) {
    if (c.ownerIn(FORK_JOIN_TASKS)) {
      return null;
    }
    boolean completable = c.ownerIn(COMPLETABLES);
    String name = (completable ? "CompletableFuture." : "Future.") + c.name;
    ConstructKind kind = completable ? ConstructKind.COMPLETABLE_FUTURE : ConstructKind.FUTURE_GET;
    return Brackets.joinWait(c.region(kind, name), true);
  }
}
