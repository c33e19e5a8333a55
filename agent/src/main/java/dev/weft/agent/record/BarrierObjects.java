package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Phaser;

/**
 * The barrier family's knowledge of its objects: {@link CyclicBarrier}s, {@link Phaser}s and {@link
 * CountDownLatch}es, described with their parties (a latch: its count when first seen) and the kind
 * of the site that named them first; and the generation a CyclicBarrier is in, which woven code
 * cannot see.
 *
 * <p>The private field read here ({@code generation}) has had this name from JDK 8 to 25; where it
 * cannot be read, every CyclicBarrier generation is 0.
 */
final class BarrierObjects implements ObjectDescriber {
  /** The describer of barriers, phasers and latches. */
  static final BarrierObjects DESCRIBER = new BarrierObjects();

  private static final VarHandle GENERATION = JdkFields.field(CyclicBarrier.class, "generation");

  /** Per barrier: the generation object last seen and its number. Weak keys: barriers may die. */
  private static final Map<CyclicBarrier, Generations> GENERATIONS = new WeakHashMap<>();

  private BarrierObjects() {}

  @Override
  public boolean describes(Object o) {
    return o instanceof CyclicBarrier || o instanceof Phaser || o instanceof CountDownLatch;
  }

  @Override
  public ObjectDef describe(long id, Object o, ConstructKind siteKind) {
    return new ObjectDef(id, siteKind, o.getClass().getName(), parties(o));
  }

  private static int parties(Object o) {
    if (o instanceof CyclicBarrier) {
      return ((CyclicBarrier) o).getParties();
    }
    if (o instanceof Phaser) {
      return ((Phaser) o).getRegisteredParties();
    }
    return (int) Math.min(Integer.MAX_VALUE, ((CountDownLatch) o).getCount());
  }

  /**
   * The number of the generation {@code barrier} is in, counted from 0 at the first generation the
   * recorder saw. A generation is the barrier's private generation object, which changes when the
   * barrier trips, breaks or is reset; every party reads it before it arrives, and the barrier
   * cannot trip before all of them did, so all parties of one generation get one number.
   */
  static long generation(CyclicBarrier barrier) {
    if (GENERATION == null) {
      return 0;
    }
    Object current;
    try {
      current = GENERATION.getVolatile(barrier);
    } catch (RuntimeException e) {
      return 0;
    }
    synchronized (GENERATIONS) {
      Generations g = GENERATIONS.get(barrier);
      if (g == null) {
        g = new Generations();
        GENERATIONS.put(barrier, g);
      }
      if (g.current != current) {
        if (g.current != null) {
          g.number++;
        }
        g.current = current;
      }
      return g.number;
    }
  }

  /** Links the generation read ahead of use (see {@link LockObjects#warmUp}). */
  static void warmUp() {
    generation(new CyclicBarrier(1));
  }

  private static final class Generations {
    Object current;
    long number;
  }
}
