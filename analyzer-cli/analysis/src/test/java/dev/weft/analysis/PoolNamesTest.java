package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.trace.Trace;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PoolNamesTest {
  @Test
  void aPoolKnownOnlyByItsIdentityIsShownByItsClassAndItsWorkersNames(@TempDir Path tmp)
      throws Exception {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    f.pool(1, "org.apache.pekko.dispatch.PekkoJdk9ForkJoinPool@66c92293", 8);
    f.pool(2, "java.util.concurrent.ThreadPoolExecutor@1b2c3d", 1);
    f.pool(3, "ForkJoinPool.commonPool", 1);
    f.pool(4, "java.util.concurrent.ForkJoinPool@aa", 2); // two pools whose workers read alike
    f.pool(5, "java.util.concurrent.ForkJoinPool@bb", 2);
    f.pool(6, "java.util.concurrent.ForkJoinPool@cc", 2); // workers with nothing in common
    f.pool(7, "java.util.concurrent.ForkJoinPool@dd", 2); // no workers seen
    for (String n : new String[] {"-1", "-10", "-11"}) {
      f.worker("bench-pekko.actor.default-dispatcher" + n, 1, 0);
    }
    f.worker("pool-2-thread-1", 2, 0);
    f.worker("ForkJoinPool.commonPool-worker-1", 3, 0);
    f.worker("fj-1", 4, 0);
    f.worker("fj-2", 4, 0);
    f.worker("fj-3", 5, 0);
    f.worker("fj-4", 5, 0);
    f.worker("alpha", 6, 0);
    f.worker("beta", 6, 0);
    try (Trace t = Trace.open(f.close(100))) {
      Map<Integer, String> names = PoolNames.of(t.definitions());
      assertEquals("PekkoJdk9ForkJoinPool (bench-pekko.actor.default-dispatcher-*)", names.get(1));
      assertEquals("ThreadPoolExecutor (pool-2-thread-1)", names.get(2));
      assertEquals("ForkJoinPool.commonPool", names.get(3));
      assertEquals("ForkJoinPool@aa (fj-*)", names.get(4));
      assertEquals("ForkJoinPool@bb (fj-*)", names.get(5));
      assertEquals("java.util.concurrent.ForkJoinPool@cc", names.get(6));
      assertEquals("java.util.concurrent.ForkJoinPool@dd", names.get(7));
    }
  }
}
