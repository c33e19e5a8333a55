package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import java.util.List;
import java.util.Set;

/**
 * {@code Thread.join} in application code (family {@code joins}): {@code join()}, {@code
 * join(millis)}, {@code join(millis, nanos)} and {@code join(Duration)} are join waits, woven where
 * the user wrote them, with the joined thread as target (its Java id in the trace).
 */
public final class ThreadJoins extends ApplicationCallSites {
  // Rows of the table, made by bracket(row, call).
  private static final int JOIN = 0;

  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(Set.of("java/lang/Thread")))
          .call("join()V", JOIN)
          .call("join(J)V", JOIN)
          .call("join(JI)V", JOIN)
          .call("join(Ljava/time/Duration;)Z", JOIN)
          .build();

  @Override
  public Family family() {
    return Family.JOINS;
  }

  @Override
  public List<String> applicationHints() {
    return List.of("join");
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    switch (row) {
      case JOIN:
        return join(c);
      default:
        return null;
    }
  }

  private static Bracket join(ApplicationCallSites.Call c) {
    return Brackets.joinWait(c.region(ConstructKind.THREAD_JOIN, "Thread.join"), true);
  }
}
