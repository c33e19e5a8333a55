package dev.weft.agent.record;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.PoolDef;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * The task family's knowledge of pools: how a pool is identified (its identity hash code) and
 * described in the trace at first sight (kind, name, parallelism). A fork-join pool is described
 * with its parallelism, a {@link ThreadPoolExecutor} with its core size, any other executor as
 * such; the JDK's scheduler of virtual threads as {@link ConstructKind#VIRTUAL_THREAD}.
 */
final class PoolObjects {
  private PoolObjects() {}

  /** A pool's id: its identity hash code, never 0. */
  static int idOf(Object pool) {
    int id = System.identityHashCode(pool) & 0x7FFFFFFF;
    return id == 0 ? 1 : id;
  }

  /**
   * The definition of {@code pool} under {@code id}.
   *
   * @param carriesVirtual the pool carries virtual threads (described as such)
   */
  static PoolDef describe(int id, Object pool, boolean carriesVirtual) {
    ConstructKind kind = ConstructKind.EXECUTOR;
    int parallelism = 0;
    String name = pool.getClass().getName() + "@" + Integer.toHexString(id);
    if (pool instanceof ForkJoinPool) {
      kind = ConstructKind.FORK_JOIN_POOL;
      parallelism = ((ForkJoinPool) pool).getParallelism();
      if (pool == ForkJoinPool.commonPool()) {
        name = "ForkJoinPool.commonPool";
      }
    } else if (pool instanceof ThreadPoolExecutor) {
      parallelism = ((ThreadPoolExecutor) pool).getCorePoolSize();
    }
    if (carriesVirtual || isVirtualThreadScheduler(pool)) {
      kind = ConstructKind.VIRTUAL_THREAD;
      name = "virtual thread scheduler";
    }
    return new PoolDef(id, kind, name, parallelism);
  }

  /** The JDK's scheduler of virtual threads: a fork-join pool whose factory is the JDK's. */
  static boolean isVirtualThreadScheduler(Object pool) {
    return pool instanceof ForkJoinPool
        && ((ForkJoinPool) pool)
            .getFactory()
            .getClass()
            .getName()
            .startsWith("java.lang.VirtualThread");
  }
}
