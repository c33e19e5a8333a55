package dev.weft.testapps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

class TeamTest {
  @Test
  void runsEveryMemberOnItsNamedThreadAndRecordsTheJoin() throws Exception {
    Truth truth = new Truth();
    String[] seen = new String[3];
    Team.run(Team.names("worker", 3), i -> seen[i] = Thread.currentThread().getName(), truth);
    assertEquals("worker-0,worker-1,worker-2", String.join(",", seen));
    assertTrue(((java.util.Map<?, ?>) truth.report().get(TruthKinds.JOIN_WAIT_NS)).size() == 1);
  }

  @Test
  void aFailingMemberWakesTheOthersAndItsExceptionIsRethrown() {
    CyclicBarrier barrier = new CyclicBarrier(2);
    IllegalStateException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                assertThrows(
                    IllegalStateException.class,
                    () ->
                        Team.run(
                            Team.names("worker", 2),
                            i -> {
                              if (i == 0) {
                                throw new IllegalStateException("broken");
                              }
                              barrier.await();
                            },
                            new Truth())));
    assertEquals("broken", e.getMessage());
  }
}
