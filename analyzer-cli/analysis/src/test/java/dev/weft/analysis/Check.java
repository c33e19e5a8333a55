package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.analysis.AnalysisResult.CallPathSeverity;
import dev.weft.analysis.AnalysisResult.PropertyResult;
import dev.weft.analysis.AnalysisResult.RegionResult;
import java.util.List;
import java.util.Map;

/** Assertions on analysis results. */
final class Check {
  private Check() {}

  static PropertyResult property(AnalysisResult r, String id) {
    PropertyResult p = r.property(id);
    assertNotNull(p, "property " + id + " missing");
    return p;
  }

  /** Inclusive severity of a property. */
  static long severity(AnalysisResult r, String id) {
    return property(r, id).severityNs();
  }

  /** Exclusive severity of a property on one thread. */
  static long onThread(AnalysisResult r, String id, String thread) {
    return property(r, id).thread(thread);
  }

  /** The severity of property {@code id} summed over the threads whose names start so. */
  static long onThreadsStartingWith(AnalysisResult r, String id, String prefix) {
    long sum = 0;
    for (AnalysisResult.ThreadSeverity t : property(r, id).byThread()) {
      if (t.thread().startsWith(prefix)) {
        sum += t.severityNs();
      }
    }
    return sum;
  }

  /** Exclusive severity of a property at one call path (labels from the outermost). */
  static long atPath(AnalysisResult r, String id, String... path) {
    for (CallPathSeverity c : property(r, id).byCallpath()) {
      if (c.path().equals(List.of(path))) {
        return c.severityNs();
      }
    }
    return 0;
  }

  static long cause(AnalysisResult r, String id, String cause) {
    Map<String, Long> causes = property(r, id).causes();
    assertNotNull(causes, id + " has no causes");
    Long v = causes.get(cause);
    assertNotNull(v, id + " has no cause " + cause + ": " + causes);
    return v;
  }

  static RegionResult region(AnalysisResult r, String name) {
    for (RegionResult g : r.regions()) {
      if (g.name().equals(name)) {
        return g;
      }
    }
    fail("no region " + name + " in " + r.regions());
    return null;
  }

  /**
   * The time tree partitions each thread's lifetime: the exclusive values of {@code time}'s subtree
   * on each thread sum to its lifetime, and over all threads to {@code time_ns}.
   */
  static void partition(AnalysisResult r, Map<String, Long> lifetimes) {
    long total = 0;
    for (Map.Entry<String, Long> e : lifetimes.entrySet()) {
      long sum = 0;
      for (PropertyResult p : r.properties()) {
        if (underTime(r, p)) {
          sum += p.thread(e.getKey());
        }
      }
      assertEquals(e.getValue(), sum, "time partition of thread " + e.getKey());
      total += sum;
    }
    assertEquals(r.timeNs(), total, "time_ns is the sum of the lifetimes");
    for (String n : r.notes()) {
      if (n.startsWith("internal check failed")) {
        fail(n);
      }
    }
  }

  static boolean underTime(AnalysisResult r, PropertyResult p) {
    for (PropertyResult q = p; q != null; q = q.parent() == null ? null : r.property(q.parent())) {
      if (q.id().equals("time")) {
        return true;
      }
    }
    return false;
  }

  /** Every property of the contract is present (zero when absent). */
  static void allPresent(AnalysisResult r) {
    for (String id :
        List.of(
            "time",
            "execution",
            "idle_threads",
            "limited_parallelism",
            "thread_management",
            "join_wait",
            "barrier_wait",
            "lock_contention",
            "monitor_contention",
            "lock_api_contention",
            "spin_wait",
            "condition_wait",
            "pool_queue_wait",
            "work_imbalance")) {
      property(r, id);
    }
  }
}
