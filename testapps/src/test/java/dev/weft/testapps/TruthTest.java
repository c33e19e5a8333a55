package dev.weft.testapps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TruthTest {
  @Test
  void sumsWhatEveryThreadRecordedUnderItsName() throws Exception {
    Truth truth = new Truth();
    Team.run(
        Team.names("worker", 3),
        i -> {
          for (int k = 0; k <= i; k++) {
            truth.add(TruthKinds.BUSY_NS, 10);
          }
          truth.add(TruthKinds.POOL_TASKS, "pool", 1);
        },
        new Truth());
    Map<String, Object> report = truth.report();
    assertEquals(Map.of("worker-0", 10L, "worker-1", 20L, "worker-2", 30L), report.get("busy_ns"));
    assertEquals(Map.of("pool", 3L), report.get("pool_tasks"));
  }

  @Test
  void ordersKindsAlphabeticallyAndKeysNaturally() {
    Truth truth = new Truth();
    for (String key : List.of("worker-10", "worker-2", "worker-1", "main")) {
      truth.add("z_ns", key, 1);
    }
    truth.add("a_ns", "x", 1);
    Map<String, Object> report = truth.report();
    assertEquals(List.of("a_ns", "z_ns"), List.copyOf(report.keySet()));
    assertEquals(
        List.of("main", "worker-1", "worker-2", "worker-10"),
        List.copyOf(((Map<?, ?>) report.get("z_ns")).keySet()));
  }

  @Test
  void computesImbalanceAndTimeLostPerRegionOverItsWholeTeam() {
    Truth truth = new Truth();
    truth.addGrouped(TruthKinds.REGION_BUSY_NS, "r", "a", 100);
    truth.addGrouped(TruthKinds.REGION_BUSY_NS, "r", "b", 300);
    truth.addRegionMember("r", "c");
    Map<String, Object> report = truth.report();
    // mean 133.3, max 300: (300 - 133.3) / 133.3 = 1.25; lost = 3 * 300 - 400.
    assertEquals(Map.of("r", 1.25), report.get(TruthKinds.IMBALANCE));
    assertEquals(Map.of("r", 500L), report.get(TruthKinds.WORK_IMBALANCE_NS));
    assertEquals(
        Map.of("r", Map.of("a", 100L, "b", 300L, "c", 0L)), report.get(TruthKinds.REGION_BUSY_NS));
  }
}
