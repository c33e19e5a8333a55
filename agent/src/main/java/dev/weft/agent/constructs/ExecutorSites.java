package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.Brackets.Pool;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.trace.ConstructKind;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.Opcodes;

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

  @Override
  public Family family() {
    return Family.EXECUTORS;
  }

  @Override
  public List<String> applicationHints() {
    return List.of("java/util/concurrent/");
  }

  @Override
  protected Bracket bracketFor(ApplicationCallSites.Call c) {
    switch (c.name) {
      case "execute":
      case "submit":
      case "schedule":
      case "scheduleAtFixedRate":
      case "scheduleWithFixedDelay":
        return c.opcode != Opcodes.INVOKESTATIC && c.ownerIn(SUBMITTERS)
            ? Brackets.construct(c.region(ConstructKind.EXECUTOR, "ExecutorService." + c.name))
            : null;
      case "invokeAll":
      case "invokeAny":
        if (c.descriptor.startsWith("(Ljava/util/Collection;") && c.ownerIn(EXECUTORS)) {
          Pool pool = c.ownerIn(FORK_JOIN_POOLS) ? Pool.RECEIVER_FORK_JOIN : Pool.RECEIVER_EXECUTOR;
          return Brackets.region(
              c.region(ConstructKind.EXECUTOR, "ExecutorService." + c.name), pool);
        }
        return null;
      case "awaitTermination":
        return c.descriptor.equals("(" + TIMEOUT + ")Z") && c.ownerIn(EXECUTORS)
            ? Brackets.joinWait(
                c.region(ConstructKind.AWAIT_TERMINATION, "ExecutorService.awaitTermination"),
                false)
            : null;
      case "close":
        return c.descriptor.equals("()V") && c.ownerIn(EXECUTORS)
            ? Brackets.joinWait(
                c.region(ConstructKind.AWAIT_TERMINATION, "ExecutorService.close"), false)
            : null;
      case "take":
      case "poll":
        return (c.is("take", "()Ljava/util/concurrent/Future;")
                    || c.is("poll", "(" + TIMEOUT + ")Ljava/util/concurrent/Future;"))
                && c.ownerIn(COMPLETION_SERVICES)
            ? Brackets.joinWait(
                c.region(ConstructKind.FUTURE_GET, "CompletionService." + c.name), false)
            : null;
      default:
        return null;
    }
  }
}
