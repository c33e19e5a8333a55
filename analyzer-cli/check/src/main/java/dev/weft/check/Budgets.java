package dev.weft.check;

import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.PropertyRegistry;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Absolute limits on properties' shares of time, written {@code barrier_wait=5%} (the property id
 * from PROPERTIES.md, then a percentage of total CPU allocation time), the same in {@code weft
 * check --budget}, the Maven plugin's {@code <budget>} and {@code @WeftBudget}.
 */
public final class Budgets {
  private Budgets() {}

  /** The property ids the analyzer knows, in metric-tree order. */
  public static List<String> knownProperties() {
    return PropertyRegistry.infos().stream().map(PropertyInfo::id).collect(Collectors.toList());
  }

  /**
   * Parses budgets such as {@code barrier_wait=5%}.
   *
   * @param where names the source in messages, e.g. {@code --budget} or {@code @WeftBudget}
   * @return the limits by property id, in percent, in the order given
   * @throws CheckInputException naming the budget when it has no {@code =}, names an unknown
   *     property or its limit is not a percentage
   */
  public static Map<String, Double> parse(Collection<String> budgets, String where) {
    Map<String, Double> limits = new LinkedHashMap<>();
    for (String budget : budgets) {
      String text = budget == null ? "" : budget.strip();
      int eq = text.indexOf('=');
      if (eq <= 0) {
        throw new CheckInputException(
            where + " '" + text + "': expected ID=PERCENT, e.g. barrier_wait=5%");
      }
      put(limits, text.substring(0, eq), text.substring(eq + 1), where);
    }
    return limits;
  }

  /** As {@link #parse(Collection, String)}, for budgets already split into id and percentage. */
  public static Map<String, Double> parse(Map<String, String> budgets, String where) {
    Map<String, Double> limits = new LinkedHashMap<>();
    budgets.forEach((id, pct) -> put(limits, id, pct, where));
    return limits;
  }

  private static void put(Map<String, Double> limits, String id, String pct, String where) {
    String key = id.strip();
    List<String> known = knownProperties();
    if (!known.contains(key)) {
      throw new CheckInputException(
          "unknown property '"
              + key
              + "' in "
              + where
              + " (properties: "
              + String.join(", ", known)
              + ")");
    }
    try {
      limits.put(key, Percent.parse(pct));
    } catch (IllegalArgumentException e) {
      throw new CheckInputException(where + " " + key + ": " + e.getMessage());
    }
  }
}
