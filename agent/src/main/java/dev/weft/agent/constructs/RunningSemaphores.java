package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.record.RunningFrames;
import java.util.Map;
import java.util.Set;

/**
 * {@code Semaphore} acquisitions and releases in frames that were running when the agent attached
 * (family {@code locks}): hooks in every {@code acquire}, {@code acquireUninterruptibly}, {@code
 * tryAcquire} and {@code release}, which such frames call afresh. Only an attached agent weaves
 * them; the recorder keeps the user's calls that call-site weaving did not see.
 */
public final class RunningSemaphores extends CalleeHookFamily {
  private static final String TIMED = "JLjava/util/concurrent/TimeUnit;)Z";

  private static final Map<String, Map<String, Integer>> OPERATIONS =
      Map.of(
          "java/util/concurrent/Semaphore",
          Map.of(
              "acquire()V",
              RunningFrames.SEMAPHORE_ACQUIRE,
              "acquire(I)V",
              RunningFrames.SEMAPHORE_ACQUIRE,
              "acquireUninterruptibly()V",
              RunningFrames.SEMAPHORE_ACQUIRE,
              "acquireUninterruptibly(I)V",
              RunningFrames.SEMAPHORE_ACQUIRE,
              "tryAcquire()Z",
              RunningFrames.SEMAPHORE_TRY,
              "tryAcquire(I)Z",
              RunningFrames.SEMAPHORE_TRY,
              "tryAcquire(" + TIMED,
              RunningFrames.SEMAPHORE_TRY_TIMED,
              "tryAcquire(I" + TIMED,
              RunningFrames.SEMAPHORE_TRY_TIMED,
              "release()V",
              RunningFrames.SEMAPHORE_RELEASE,
              "release(I)V",
              RunningFrames.SEMAPHORE_RELEASE));

  public RunningSemaphores() {
    super(Family.LOCKS, OPERATIONS, Set.of(RunningFrames.SEMAPHORE_RELEASE));
  }
}
