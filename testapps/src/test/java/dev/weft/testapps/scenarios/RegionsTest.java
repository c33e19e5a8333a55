package dev.weft.testapps.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.testapps.harness.ScenarioRunner;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegionsTest {
  @Test
  void countsEveryRegionEntryPerThread() throws Exception {
    ScenarioRunner.Result run =
        ScenarioRunner.scenario("regions")
            .withOption("threads", 2)
            .withOption("outer", 3)
            .withOption("inner", 4)
            .withOption("hidden", 5)
            .runInProcess();
    assertEquals(0, run.exitCode(), run::toString);
    Map<String, Long> perThread = Map.of("worker-0", 3L, "worker-1", 3L);
    assertEquals(perThread, run.truthPerKey("region_entries", "outer"));
    Map<String, Long> steps = Map.of("worker-0", 12L, "worker-1", 12L);
    assertEquals(steps, run.truthPerKey("region_entries", "step"));
    assertEquals(steps, run.truthPerKey("region_entries", "inner"));
    assertEquals(steps, run.truthPerKey("region_entries", Regions.LEAF_REGION));
    assertEquals(Map.of("main", 5L), run.truthPerKey(Regions.REGION_ENTRIES_WHILE_OFF, "hidden"));
    assertEquals(6, run.result().get("outer").asLong());
    assertEquals(24, run.result().get("step").asLong());
    assertEquals(5, run.result().get("hidden").asLong());
    assertEquals("region outer: 6", run.stdout().lines().findFirst().orElseThrow());
  }
}
