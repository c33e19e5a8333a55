package dev.weft.testapps.scenarios;

import dev.weft.api.Region;
import dev.weft.api.Traced;
import dev.weft.api.Weft;
import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * User regions entered a known number of times, through {@link Weft#region} and {@link Traced}.
 *
 * <p>Each of {@code --threads} threads runs {@code --outer} times a region "outer", which calls the
 * {@code @Traced("step")} method {@code --inner} times; each step enters the region "inner", which
 * calls the {@code @Traced} method {@link #leaf} (default name). Then main, alone, switches
 * measurement off, enters the region "hidden" {@code --hidden} times, and switches it on again.
 */
public final class Regions implements Scenario {
  /** Truth kind: regions entered while measurement was off, per region and thread. */
  public static final String REGION_ENTRIES_WHILE_OFF = "region_entries_while_off";

  /** The name a default {@code @Traced} gives {@link #leaf}: {@code Class.method}. */
  public static final String LEAF_REGION = "Regions.leaf";

  @Override
  public String name() {
    return "regions";
  }

  @Override
  public String summary() {
    return "user regions (Weft.region, @Traced, off/on) entered a known number of times";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("threads", 1, 1, 64, "threads entering regions (1: main only)"),
        OptionSpec.integer("outer", 3, 0, 1_000_000, "'outer' regions per thread"),
        OptionSpec.integer("inner", 4, 0, 1_000, "@Traced steps per 'outer' region"),
        OptionSpec.integer("hidden", 2, 0, 1_000_000, "regions entered by main while off"));
  }

  @Override
  @SuppressWarnings("try") // the regions are entered for their side effect only
  public Object run(ScenarioContext context) throws Exception {
    int threads = context.options().intValue("threads");
    int outer = context.options().intValue("outer");
    int inner = context.options().intValue("inner");
    int hidden = context.options().intValue("hidden");
    Truth truth = context.truth();
    if (threads == 1) {
      enterRegions(outer, inner, truth);
    } else {
      Team.run(Team.names("worker", threads), i -> enterRegions(outer, inner, truth), truth);
    }
    Weft.off();
    for (int h = 0; h < hidden; h++) {
      try (Region r = Weft.region("hidden")) {
        truth.addGrouped(REGION_ENTRIES_WHILE_OFF, "hidden", 1);
      }
    }
    Weft.on();
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("outer", (long) threads * outer);
    counts.put("step", (long) threads * outer * inner);
    counts.put("inner", (long) threads * outer * inner);
    counts.put(LEAF_REGION, (long) threads * outer * inner);
    counts.put("hidden", (long) hidden);
    counts.forEach((region, n) -> context.out().println("region " + region + ": " + n));
    return counts;
  }

  @SuppressWarnings("try")
  private void enterRegions(int outer, int inner, Truth truth) {
    for (int o = 0; o < outer; o++) {
      try (Region r = Weft.region("outer")) {
        truth.addGrouped(TruthKinds.REGION_ENTRIES, "outer", 1);
        for (int i = 0; i < inner; i++) {
          step(truth);
        }
      }
    }
  }

  @Traced("step")
  @SuppressWarnings("try")
  private void step(Truth truth) {
    truth.addGrouped(TruthKinds.REGION_ENTRIES, "step", 1);
    try (Region r = Weft.region("inner")) {
      truth.addGrouped(TruthKinds.REGION_ENTRIES, "inner", 1);
      leaf(truth);
    }
  }

  @Traced
  private void leaf(Truth truth) {
    truth.addGrouped(TruthKinds.REGION_ENTRIES, LEAF_REGION, 1);
  }
}
