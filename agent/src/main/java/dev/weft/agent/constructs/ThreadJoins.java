package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.trace.ConstructKind;
import java.util.List;
import java.util.Set;

/**
 * {@code Thread.join} in application code (family {@code joins}): {@code join()}, {@code
 * join(millis)}, {@code join(millis, nanos)} and {@code join(Duration)} are join waits, woven where
 * the user wrote them, with the joined thread as target (its Java id in the trace).
 */
public final class ThreadJoins extends ApplicationCallSites {
  private static final Set<String> THREADS = Set.of("java/lang/Thread");
  private static final Set<String> DESCRIPTORS =
      Set.of("()V", "(J)V", "(JI)V", "(Ljava/time/Duration;)Z");

  @Override
  public Family family() {
    return Family.JOINS;
  }

  @Override
  public List<String> applicationHints() {
    return List.of("join");
  }

  @Override
  protected Bracket bracketFor(ApplicationCallSites.Call c) {
    if (!c.name.equals("join") || !DESCRIPTORS.contains(c.descriptor) || !c.ownerIn(THREADS)) {
      return null;
    }
    return Brackets.joinWait(c.region(ConstructKind.THREAD_JOIN, "Thread.join"), true);
  }
}
