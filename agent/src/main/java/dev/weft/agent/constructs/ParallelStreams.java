package dev.weft.agent.constructs;

import dev.weft.agent.config.Family;
import dev.weft.agent.constructs.Brackets.Pool;
import dev.weft.agent.constructs.CallSiteWeaver.Bracket;
import dev.weft.agent.constructs.CallSiteWeaver.Site;
import dev.weft.agent.constructs.CallTargets.Invoke;
import dev.weft.agent.constructs.CallTargets.Owners;
import dev.weft.trace.ConstructKind;
import java.util.List;
import java.util.Set;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Parallel streams (family {@code forkjoin}): the terminal operation of a stream pipeline, at the
 * line where the application calls it, is a parallel region when the stream is parallel at run time
 * ({@code isParallel()}, asked once before the call): FORK before the terminal call, with the pool
 * the stream runs in (the caller's fork-join pool, else the common pool) and its parallelism, and
 * JOIN when the call returns or throws. In between the caller is in a join wait (the region's
 * implicit barrier); it runs part of the work itself (its tasks nest in the wait), so it is a
 * member of the region's team. The tasks the stream forks are recorded by {@link ForkJoinTasks};
 * the joins inside the stream implementation are not recorded separately.
 *
 * <p>Sequential streams cost one {@code isParallel()} call per terminal operation. Lazy escapes
 * ({@code iterator()}, {@code spliterator()}) are not regions.
 */
public final class ParallelStreams extends ApplicationCallSites {
  private static final Set<String> STREAMS =
      Set.of(
          "java/util/stream/Stream",
          "java/util/stream/IntStream",
          "java/util/stream/LongStream",
          "java/util/stream/DoubleStream");

  private static final Set<String> TERMINAL =
      Set.of(
          "forEach",
          "forEachOrdered",
          "toArray",
          "reduce",
          "collect",
          "toList",
          "min",
          "max",
          "count",
          "sum",
          "average",
          "summaryStatistics",
          "anyMatch",
          "allMatch",
          "noneMatch",
          "findFirst",
          "findAny");

  /** The one row kind of the table, made by bracket(row, call). */
  private static final int PARALLEL_REGION = 0;

  private static final CallTargets TARGETS = terminalOperations();

  /** Every terminal operation, whatever its descriptor, called on a stream interface. */
  private static CallTargets terminalOperations() {
    CallTargets.Builder table = CallTargets.builder().owners(Owners.exactly(STREAMS));
    for (String name : TERMINAL) {
      table.call(Invoke.VIRTUAL, name, PARALLEL_REGION);
    }
    return table.build();
  }

  @Override
  public Family family() {
    return Family.FORKJOIN;
  }

  @Override
  public List<String> applicationHints() {
    return List.of("java/util/stream/");
  }

  @Override
  protected CallTargets targets() {
    return TARGETS;
  }

  @Override
  public Bracket bracket(int row, ApplicationCallSites.Call c) {
    return row == PARALLEL_REGION ? parallelRegion(c) : null;
  }

  private static Bracket parallelRegion(ApplicationCallSites.Call c) {
    return parallelRegion(c.region(ConstructKind.PARALLEL_STREAM, "parallel stream " + c.name));
  }

  private static Bracket parallelRegion(int region) {
    return new Bracket() {
      @Override
      protected boolean keepsOperands() {
        return true;
      }

      @Override
      protected boolean hasCondition() {
        return true;
      }

      @Override
      protected void condition(MethodVisitor mv, Site site) {
        site.loadReceiver(mv);
        mv.visitMethodInsn(
            Opcodes.INVOKEINTERFACE, "java/util/stream/BaseStream", "isParallel", "()Z", true);
      }

      @Override
      protected void before(MethodVisitor mv, Site site) {
        site.when(true, () -> Brackets.fork(mv, site, region, Pool.CURRENT_OR_COMMON));
      }

      @Override
      protected void after(MethodVisitor mv, Site site) {
        site.when(true, () -> Brackets.join(mv, site, region, Pool.CURRENT_OR_COMMON));
      }
    };
  }
}
