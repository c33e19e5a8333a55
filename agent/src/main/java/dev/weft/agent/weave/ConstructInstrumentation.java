package dev.weft.agent.weave;

import dev.weft.agent.config.Family;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.ClassVisitor;

/**
 * The instrumentation of one construct family: one implementation per family, in one file,
 * registered by one line in {@link Constructs#all()}. A family may work in two scopes:
 *
 * <ul>
 *   <li><b>JDK scope</b>: the JDK classes named by {@link #jdkClasses()} are changed by {@link
 *       #transformJdkClass} when they load, or retransformed when the agent starts after they
 *       loaded (at premain some are already loaded; at attach most are). Retransformation forbids
 *       new fields and methods, so JDK changes must be advice only: code added inside existing
 *       methods, by an ASM method visitor ({@link HookedMethod} for enter/return/throw hooks).
 *   <li><b>Application scope</b>: every class loaded by an application class loader whose bytes
 *       contain one of {@link #applicationHints()} (a cheap byte search of the class file, done
 *       before any parsing) is passed through {@link #visitApplicationClass}, an ASM visitor that
 *       typically weaves call sites ({@code monitorenter}, {@code lock.lock()}, {@code
 *       Weft.region(...)}); the call-site families share one path, {@code ApplicationCallSites},
 *       and declare only a table of the calls they bracket.
 * </ul>
 *
 * <p>Woven code calls one static method of {@code WeftBridge} per event, passing an int region id
 * from {@link WeaveTarget#regions()} (registered at weave time with the site's file and lines) and
 * the object concerned. Instrumentation must never change what the program computes.
 */
public interface ConstructInstrumentation {

  /** The family that {@code constructs=} switches this instrumentation on and off with. */
  Family family();

  /**
   * Internal names ({@code java/util/concurrent/locks/ReentrantLock}) of the JDK classes to change.
   */
  default Set<String> jdkClasses() {
    return Set.of();
  }

  /**
   * Changes one of {@link #jdkClasses()}: advice only (no new members, no changed signatures or
   * modifiers), so that it works at load time and when retransforming.
   *
   * @return the new class file, or null to leave the class as it is
   * @throws Exception counted as a weaving error; the class stays unchanged
   */
  default byte[] transformJdkClass(WeaveTarget target) throws Exception {
    return null;
  }

  /**
   * Strings whose presence in a class file (as UTF-8 bytes, e.g. an internal class name in the
   * constant pool) makes an application class a candidate for {@link #visitApplicationClass}.
   * Empty: no application scope. The empty string matches every class (avoid unless the construct
   * can appear anywhere, like {@code synchronized}).
   */
  default List<String> applicationHints() {
    return List.of();
  }

  /**
   * A finer test of a candidate application class (its bytes contain a hint), still without parsing
   * it: e.g. a look at its constant pool or method flags. Classes no family wants are neither
   * parsed nor, at attach, retransformed. Never load classes from here.
   */
  default boolean wantsApplicationClass(WeaveTarget target) {
    return true;
  }

  /**
   * Whether {@code include=}/{@code exclude=} apply. False only for instrumentation the user asked
   * for explicitly in the code ({@code @Traced}, {@code Weft.region}).
   */
  default boolean honoursClassFilter() {
    return true;
  }

  /**
   * Wraps the visitor chain of a candidate application class. Call {@link WeaveTarget#changed()}
   * when something was woven (otherwise the original bytes are kept). Never load classes from here.
   */
  default ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
    return next;
  }
}
