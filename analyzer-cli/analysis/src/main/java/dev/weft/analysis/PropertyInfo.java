package dev.weft.analysis;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The metadata at the top of every {@link Property} class (Scalasca's pattern header): the report,
 * the JSON output and PROPERTIES.md are generated from it. In {@link #description} and {@link
 * #diagnosis}, {@code [[other_id]]} links to another property.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface PropertyInfo {
  /** Stable lower_snake_case id: a public contract (JSON, CI checks). Never rename. */
  String id();

  /** The parent's id, or "" for a root of the property tree. */
  String parent();

  /** Display name. */
  String name();

  /** One line: what the severity measures. */
  String info();

  /** What exactly is counted, and where it is attributed. */
  String description();

  /** What a high value means and what to do about it. */
  String diagnosis();

  /** The unit of the severity. */
  String unit() default "ns";

  /**
   * Whether the property is time threads were ready for work that had not come (an event loop in
   * select, a worker waiting for its next task): not a problem in itself, so reports rank it after
   * the waits that hold work up.
   */
  boolean readyForWork() default false;
}
