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
  private static final CallTargets TARGETS =
      CallTargets.builder()
          .owners(Owners.orSubtypes(Set.of("java/lang/Thread")))
          .call("join()V", ThreadJoins::join)
          .call("join(J)V", ThreadJoins::join)
          .call("join(JI)V", ThreadJoins::join)
          .call("join(Ljava/time/Duration;)Z", ThreadJoins::join)
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

  private static Bracket join(ApplicationCallSites.Call c) {
    return Brackets.joinWait(c.region(ConstructKind.THREAD_JOIN, "Thread.join"), true);
  }
}
