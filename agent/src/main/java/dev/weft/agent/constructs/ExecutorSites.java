package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.Brackets.Pool;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Invoke;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import java.util.List;
import java.util.Set;

/**
 * Executor calls in application code, woven where the user wrote them (family {@code executors}):
 *
 * <ul>
 *   <li>{@code execute(task)}, {@code submit(task)} and {@code schedule...(task, ...)}: the call is
 *       a region of its own (ENTER/EXIT at the user's line), within which the executor records the
 *       task's TASK_CREATE; so every task is attributed to the line that submitted it.
 *   <li>{@code invokeAll(tasks)} and {@code invokeAny(tasks)} (with or without a timeout): a
 *       parallel region on the executor (FORK and a join wait before, JOIN after the call returns
 *       or throws): the caller waits for a team of tasks.
 *   <li>{@code awaitTermination(timeout)} and {@code close()} (JDK 19+): a join wait.
 *   <li>{@code CompletionService.take()} and {@code poll(timeout)}: a join wait for the next
 *       finished task.
 * </ul>
 *
 * The tasks themselves are recorded by {@link ExecutorTasks} or {@link ForkJoinTasks}.
 */
public final class ExecutorSites extends ApplicationCallSites {
  private static final Set<String> EXECUTORS =
      Set.of(
          "java/util/concurrent/ExecutorService",
          "java/util/concurrent/ScheduledExecutorService",
          "java/util/concurrent/AbstractExecutorService",
          "java/util/concurrent/ThreadPoolExecutor",
          "java/util/concurrent/ScheduledThreadPoolExecutor",
          Brackets.FORK_JOIN_POOL);
  private static final Set<String> SUBMITTERS =
      Set.of(
          "java/util/concurrent/Executor",
          "java/util/concurrent/ExecutorService",
          "java/util/concurrent/ScheduledExecutorService",
          "java/util/concurrent/AbstractExecutorService",
          "java/util/concurrent/ThreadPoolExecutor",
          "java/util/concurrent/ScheduledThreadPoolExecutor",
          Brackets.FORK_JOIN_POOL);
  private static final Set<String> COMPLETION_SERVICES =
      Set.of(
          "java/util/concurrent/CompletionService",
          "java/util/concurrent/ExecutorCompletionService");
  private static final Set<String> FORK_JOIN_POOLS = Set.of(Brackets.FORK_JOIN_POOL);
  private static final String TIMEOUT = "JLjava/util/concurrent/TimeUnit;";

  private static final String COLLECTION = "(Ljava/util/Collection;";

  // Rows of the table, made by bracket(row, call).
  private static final int SUBMIT = 0;
  private static final int TEAM = 1;
  private static final int AWAIT_TERMINATION = 2;
  private static final int NEXT_COMPLETED = 3;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          // Virtual calls only: an executor's private overload or its super.execute is its own
          // inside of a submission (Netty's execute(task, immediate)), not the user's line.
          .owners(Owners.orSubtypes(SUBMITTERS))
          .call(Invoke.VIRTUAL, "execute", SUBMIT)
          .call(Invoke.VIRTUAL, "submit", SUBMIT)
          .call(Invoke.VIRTUAL, "schedule", SUBMIT)
          .call(Invoke.VIRTUAL, "scheduleAtFixedRate", SUBMIT)
          .call(Invoke.VIRTUAL, "scheduleWithFixedDelay", SUBMIT)
          .owners(Owners.orSubtypes(EXECUTORS))
          .call("invokeAll" + COLLECTION + ")Ljava/util/List;", TEAM)
          .call("invokeAll" + COLLECTION + TIMEOUT + ")Ljava/util/List;", TEAM)
          .call("invokeAny" + COLLECTION + ")Ljava/lang/Object;", TEAM)
          .call("invokeAny" + COLLECTION + TIMEOUT + ")Ljava/lang/Object;", TEAM)
          .call("awaitTermination(" + TIMEOUT + ")Z", AWAIT_TERMINATION)
          .call("close()V", AWAIT_TERMINATION)
          .owners(Owners.orSubtypes(COMPLETION_SERVICES))
          .call("take()Ljava/util/concurrent/Future;", NEXT_COMPLETED)
          .call("poll(" + TIMEOUT + ")Ljava/util/concurrent/Future;", NEXT_COMPLETED)
          .build();

  @Override
  public Family family() {
    return Family.EXECUTORS;
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
      case SUBMIT:
        return submit(c);
      case TEAM:
        return team(c);
      case AWAIT_TERMINATION:
        return awaitTermination(c);
      case NEXT_COMPLETED:
        return nextCompleted(c);
      default:
        return null;
    }
  }

  /** The call is a region within which the executor records the task's TASK_CREATE. */
  private static Bracket submit(ApplicationCallSites.Call c) {
    return Brackets.construct(c.region(ConstructKind.EXECUTOR, "ExecutorService." + c.name));
  }

  /** A parallel region on the executor. */
  private static Bracket team(ApplicationCallSites.Call c) {
    Pool pool = c.ownerIn(FORK_JOIN_POOLS) ? Pool.RECEIVER_FORK_JOIN : Pool.RECEIVER_EXECUTOR;
    return Brackets.region(c.region(ConstructKind.EXECUTOR, "ExecutorService." + c.name), pool);
  }

  private static Bracket awaitTermination(ApplicationCallSites.Call c) {
    return Brackets.joinWait(
        c.region(ConstructKind.AWAIT_TERMINATION, "ExecutorService." + c.name), false);
  }

  private static Bracket nextCompleted(ApplicationCallSites.Call c) {
    return Brackets.joinWait(
        c.region(ConstructKind.FUTURE_GET, "CompletionService." + c.name), false);
  }
}
