package dev.weft.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Records every call of the annotated method or constructor as a region: ENTER when it starts, EXIT
 * when it returns or an exception leaves it. Without the Weft agent this annotation does nothing.
 *
 * <p>Retained at run time only because the JVM drops class-retention annotations from the class
 * bytes it hands to an agent that attaches later; nothing reads it by reflection.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface Traced {
  /** The region's name; empty means {@code Class.method}. */
  String value() default "";
}
