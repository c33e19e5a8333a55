package dev.weft.trace;

/**
 * A thread pool whose workers form a team (ForkJoinPool, ThreadPoolExecutor, ...).
 *
 * @param id the id pool fields and thread definitions refer to (never 0)
 * @param kind {@link ConstructKind#FORK_JOIN_POOL}, {@link ConstructKind#EXECUTOR} or {@link
 *     ConstructKind#VIRTUAL_THREAD}
 * @param name e.g. {@code ForkJoinPool.commonPool} or the pool's class and identity
 * @param parallelism the configured parallelism (core size for executors)
 */
public record PoolDef(int id, ConstructKind kind, String name, int parallelism) {}
