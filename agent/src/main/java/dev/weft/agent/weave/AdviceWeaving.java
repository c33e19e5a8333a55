package dev.weft.agent.weave;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.InstrumentedType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;

/**
 * Applies Byte Buddy {@link Advice} to one class file, without Byte Buddy's {@code AgentBuilder}
 * (whose set-up alone costs about a second of JVM start): the class is redefined with class-format
 * changes disabled, so the result is valid for retransformation (no new members, same signatures).
 * Byte Buddy's classes are loaded only when a construct first calls this.
 *
 * <p>Write advice as a class of static methods annotated {@code @Advice.OnMethodEnter(suppress =
 * Throwable.class)} / {@code @Advice.OnMethodExit(suppress = Throwable.class, onThrowable =
 * Throwable.class)} whose bodies make one call to {@code WeftBridge}. A parameter annotated {@link
 * RegionId} receives the region id passed to {@link #apply(WeaveTarget, Class, ElementMatcher,
 * int)}.
 *
 * <p><b>Important:</b> advice code is inlined into the target class, so it may reference only types
 * the target can see: for JDK classes, JDK types and the bridge.
 */
public final class AdviceWeaving {
  private AdviceWeaving() {}

  /** Binds an {@code int} advice parameter to the region id of the woven site. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.PARAMETER)
  public @interface RegionId {}

  /** Weaves {@code advice} into the methods of {@code target} that {@code methods} matches. */
  public static byte[] apply(
      WeaveTarget target, Class<?> advice, ElementMatcher<? super MethodDescription> methods) {
    return weave(target, Advice.to(advice, locatorOf(advice)), methods);
  }

  /**
   * As {@link #apply(WeaveTarget, Class, ElementMatcher)}, binding {@link RegionId} to {@code
   * region}.
   */
  public static byte[] apply(
      WeaveTarget target,
      Class<?> advice,
      ElementMatcher<? super MethodDescription> methods,
      int region) {
    Advice a =
        Advice.withCustomMapping().bind(RegionId.class, region).to(advice, locatorOf(advice));
    return weave(target, a, methods);
  }

  private static ClassFileLocator locatorOf(Class<?> advice) {
    return ClassFileLocator.ForClassLoader.of(advice.getClassLoader());
  }

  private static byte[] weave(
      WeaveTarget target, Advice advice, ElementMatcher<? super MethodDescription> methods) {
    ClassFileLocator locator =
        new ClassFileLocator.Compound(
            ClassFileLocator.Simple.of(target.binaryName(), target.classfile()),
            target.loader() == null
                ? ClassFileLocator.ForClassLoader.ofBootLoader()
                : ClassFileLocator.ForClassLoader.of(target.loader()));
    TypePool pool = TypePool.Default.of(locator);
    TypeDescription type = pool.describe(target.binaryName()).resolve();
    return new ByteBuddy()
        .with(TypeValidation.DISABLED)
        .with(Implementation.Context.Disabled.Factory.INSTANCE)
        .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE)
        .with(InstrumentedType.Factory.Default.FROZEN)
        .redefine(type, locator)
        .visit(advice.on(methods))
        .make(pool)
        .getBytes();
  }
}
