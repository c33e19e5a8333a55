package dev.weft.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Budgets on wait states while a test runs: the test fails when a property's share of the time
 * between its start and end exceeds its budget.
 *
 * <pre>{@code
 * @Test
 * @WeftBudget({"barrier_wait=5%", "lock_contention=2%"})
 * void solvesInParallel() { ... }
 * }</pre>
 *
 * <p>Each budget is {@code ID=PERCENT}, a property id from analyzer-cli/PROPERTIES.md and a
 * percentage of total CPU allocation time, as in {@code weft check --budget}. On a class it applies
 * to each of its tests; a method's budget for the same property wins. Needs the Weft agent on the
 * test JVM (the Maven plugin's {@code prepare-agent} goal puts it there); without it the test fails
 * saying so.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(WeftBudgetExtension.class)
public @interface WeftBudget {
  /** Budgets such as {@code barrier_wait=5%}. */
  String[] value();
}
