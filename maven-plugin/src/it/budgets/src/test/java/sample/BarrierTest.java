package sample;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.junit.WeftBudget;
import org.junit.jupiter.api.Test;

class BarrierTest {
  @Test
  void imbalancedRounds() throws Exception {
    assertTrue(Imbalance.run(40, 2_000_000) > 0);
  }

  @Test
  @WeftBudget("barrier_wait=95%")
  void withinItsBudget() throws Exception {
    assertTrue(Imbalance.run(20, 2_000_000) > 0);
  }

  @Test
  @WeftBudget({"barrier_wait=5%", "lock_contention=50%"})
  void overItsBudget() throws Exception {
    assertTrue(Imbalance.run(20, 2_000_000) > 0);
  }
}
