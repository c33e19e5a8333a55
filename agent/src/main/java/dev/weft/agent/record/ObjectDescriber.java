package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;

/**
 * One construct family's knowledge of the objects its events name (locks, barriers): which objects
 * are its own, and how such an object is described in the trace when the recorder first sees it
 * (its kind, class and parties). Events name these objects by dense ids ({@link ObjectIds}); pools
 * and tasks are named by identity hash codes instead ({@link PoolObjects}, {@link IdentityIds}).
 *
 * <p>{@link ObjectDefinitions} asks the families in a fixed order; an object that no family claims
 * (a monitor's object, a notified object) is described by {@link #OTHER}.
 */
interface ObjectDescriber {
  /** Whether {@code o} is one of this family's objects. */
  boolean describes(Object o);

  /**
   * The definition of {@code o}, to be written under {@code id}; {@code siteKind} is the kind of
   * the woven site whose event named it first, for objects whose class does not tell their kind.
   */
  ObjectDef describe(long id, Object o, ConstructKind siteKind);

  /**
   * Any object: the kind of the site that named it first (a monitor, a wait, a notify), and its
   * class, shown as the JDK lock class a nested java.util.concurrent.locks class belongs to.
   */
  ObjectDescriber OTHER =
      new ObjectDescriber() {
        @Override
        public boolean describes(Object o) {
          return true;
        }

        @Override
        public ObjectDef describe(long id, Object o, ConstructKind siteKind) {
          return new ObjectDef(id, siteKind, LockObjects.className(o), 0);
        }
      };
}
