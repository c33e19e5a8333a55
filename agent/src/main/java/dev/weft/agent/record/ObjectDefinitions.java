package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.PoolDef;
import dev.weft.trace.TraceWriter;
import java.util.concurrent.atomic.LongAdder;

/**
 * The ids events give objects and pools, and their definitions in the trace, written at first
 * sight: objects (locks, barriers, notified objects) get dense ids ({@link ObjectIds}) and are
 * described by the first {@link ObjectDescriber} that claims them; pools are named by identity hash
 * codes and described by {@link PoolObjects}. A description that cannot be written is counted;
 * events keep the id.
 *
 * <p>Callers hold the thread's re-entrancy guard: writing a definition may take instrumented locks.
 */
final class ObjectDefinitions {
  private final TraceWriter writer;
  private final RegionRegistry regions;
  private final ObjectIds objectIds = new ObjectIds(1 << 17);
  private final IdentityIds poolsSeen = new IdentityIds(1 << 10);

  /** Object and pool descriptions that could not be written (their events keep the ids). */
  private final LongAdder descriptionsLost = new LongAdder();

  /** The pool id of the JDK's virtual-thread scheduler, once seen (0 before). */
  private volatile int virtualScheduler;

  ObjectDefinitions(TraceWriter writer, RegionRegistry regions) {
    this.writer = writer;
    this.regions = regions;
  }

  /**
   * The id of object {@code o} (0 for null), defined at first sight at a site of {@code region}.
   */
  long objectId(int region, Object o) {
    if (o == null) {
      return 0;
    }
    long found = objectIds.lookup(o);
    long id = ObjectIds.id(found);
    if (found != id) {
      define(region, id, o);
    }
    return id;
  }

  private void define(int region, long id, Object o) {
    ObjectDescriber describer = ObjectDescriber.OTHER;
    for (ObjectDescriber d : Describers.ALL) {
      if (d.describes(o)) {
        describer = d;
        break;
      }
    }
    boolean pinned = VirtualThreadPins.pin();
    try {
      writer.defineObject(describer.describe(id, o, regions.kind(region)));
    } catch (Exception e) {
      // Events keep the id; only the object's description is lost (counted).
      descriptionsLost.increment();
    } finally {
      if (pinned) {
        VirtualThreadPins.unpin();
      }
    }
  }

  /** The id of {@code pool} (0 for null), defined at first sight. */
  int poolId(Object pool) {
    return poolId(pool, false);
  }

  /**
   * @param carriesVirtual the pool carries virtual threads (described as such)
   */
  int poolId(Object pool, boolean carriesVirtual) {
    if (pool == null) {
      return 0;
    }
    int id = PoolObjects.idOf(pool);
    if (poolsSeen.firstSight(id)) {
      PoolDef def = PoolObjects.describe(id, pool, carriesVirtual);
      if (def.kind() == ConstructKind.VIRTUAL_THREAD) {
        virtualScheduler = id;
      }
      boolean pinned = VirtualThreadPins.pin();
      try {
        writer.definePool(def);
      } catch (Exception e) {
        // Events keep the id; only the pool's description is lost (counted).
        descriptionsLost.increment();
      } finally {
        if (pinned) {
          VirtualThreadPins.unpin();
        }
      }
    }
    return id;
  }

  /** The pool id of the JDK's virtual-thread scheduler, or 0 while not seen. */
  int virtualScheduler() {
    return virtualScheduler;
  }

  /** Descriptions that could not be written. */
  long descriptionsLost() {
    return descriptionsLost.sum();
  }

  /**
   * The families that describe their own objects, asked in this order, then {@link
   * ObjectDescriber#OTHER}. A holder, initialised at the first definition (or by the agent's
   * warm-up thread), not when the recorder is made: the lock family's field handles cost start-up
   * time.
   */
  static final class Describers {
    static final ObjectDescriber[] ALL = {LockObjects.DESCRIBER, BarrierObjects.DESCRIBER};

    private Describers() {}
  }
}
