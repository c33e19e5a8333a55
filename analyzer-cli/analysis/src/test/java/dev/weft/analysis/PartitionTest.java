package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.AnalysisResult.PropertyResult;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** On a mixed synthetic trace, the time tree partitions every thread's lifetime exactly. */
class PartitionTest {
  @TempDir Path tmp;

  @Test
  void timeChildrenSumToTimeOnEveryThread() throws Exception {
    Path trace = tmp.resolve("t");
    SyntheticTrace.write(trace, 6, 200_000, new int[] {3, 2, 1, 2});
    AnalysisResult r = Analyzer.analyze(trace);
    Check.allPresent(r);
    for (String n : r.notes()) {
      assertTrue(!n.startsWith("internal check failed"), n);
    }
    long sum = 0;
    for (PropertyResult p : r.properties()) {
      if (Check.underTime(r, p)) {
        sum += p.exclusiveNs();
      }
    }
    assertEquals(r.timeNs(), sum);
    assertEquals(r.timeNs(), Check.severity(r, "time"));
    long children = 0;
    for (PropertyResult p : r.properties()) {
      if ("time".equals(p.parent())) {
        children += p.severityNs();
      }
    }
    assertEquals(r.timeNs(), children, "the children of time add up to time");
    assertTrue(Check.severity(r, "barrier_wait") > 0);
    assertTrue(Check.severity(r, "monitor_contention") > 0);
    assertTrue(Check.severity(r, "join_wait") > 0);
    assertTrue(r.trace().complete());
    assertEquals(6, r.trace().threads());
  }
}
