package dev.weft.analysis;

import dev.weft.analysis.AnalysisResult.CallPathSeverity;
import dev.weft.analysis.AnalysisResult.PropertyResult;
import dev.weft.analysis.AnalysisResult.RegionResult;
import dev.weft.analysis.AnalysisResult.ThreadSeverity;
import dev.weft.analysis.AnalysisResult.TraceInfo;
import dev.weft.analysis.AnalysisResult.Window;
import dev.weft.analysis.properties.WorkImbalance;
import dev.weft.trace.Definitions;
import dev.weft.trace.RegionDef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the {@link AnalysisResult} from a finished replay's severity cube. */
public final class Results {
  private Results() {}

  static AnalysisResult build(
      Path dir,
      Definitions defs,
      Replay replay,
      long windowStart,
      long windowEnd,
      AnalysisResult.Status status,
      String statusDetail,
      AnalysisResult.Cut cut,
      long events,
      long dropped,
      List<String> notes) {
    List<Property> props = replay.properties;
    ThreadState[] threads = replay.threads;
    int np = props.size();
    int nt = threads.length;

    long timeNs = 0;
    int liveThreads = 0;
    for (ThreadState th : threads) {
      if (th.started) {
        timeNs += th.end - th.begin;
        liveThreads++;
      }
    }

    long[][] byThread = new long[np][nt];
    List<Map<Integer, Long>> byNode = new ArrayList<>();
    for (int i = 0; i < np; i++) {
      byNode.add(new HashMap<>());
    }
    replay.cube.forEach(
        (p, node, thread, ns) -> {
          byThread[p][thread] += ns;
          byNode.get(p).merge(node, ns, Long::sum);
        });

    long[] exclusive = new long[np];
    for (int p = 0; p < np; p++) {
      for (long v : byThread[p]) {
        exclusive[p] += v;
      }
    }
    long[] inclusive = exclusive.clone();
    for (int p = np - 1; p >= 0; p--) {
      Property parent = props.get(p).parent();
      if (parent != null) {
        inclusive[parent.index()] += inclusive[p];
      }
    }

    checkPartition(props, threads, byThread, notes);

    List<PropertyResult> results = new ArrayList<>();
    for (int p = 0; p < np; p++) {
      Property prop = props.get(p);
      if (prop.parent() == null && prop.id().equals("time")) {
        inclusive[p] = Math.max(inclusive[p], timeNs);
      }
      List<ThreadSeverity> ts = new ArrayList<>();
      for (int t = 0; t < nt; t++) {
        if (byThread[p][t] != 0) {
          ts.add(new ThreadSeverity(threads[t].name, byThread[p][t]));
        }
      }
      ts.sort(Comparator.comparingLong(ThreadSeverity::severityNs).reversed());
      List<CallPathSeverity> cs = new ArrayList<>();
      for (Map.Entry<Integer, Long> e : byNode.get(p).entrySet()) {
        cs.add(new CallPathSeverity(replay.tree.path(defs, e.getKey()), e.getValue()));
      }
      cs.sort(
          Comparator.comparingLong(CallPathSeverity::severityNs)
              .reversed()
              .thenComparing(c -> String.join("/", c.path())));
      results.add(
          new PropertyResult(
              prop.id(),
              prop.parent() == null ? null : prop.parent().id(),
              prop.info().name(),
              inclusive[p],
              percent(inclusive[p], timeNs),
              ts,
              cs,
              prop.causes()));
    }

    List<RegionResult> regions = new ArrayList<>();
    for (RegionBusy r : replay.regionStats) {
      WorkImbalance.Imbalance m = WorkImbalance.measure(r);
      if (m.members() < 2 || r.instances() == 0) {
        continue;
      }
      Map<String, Long> busy = new LinkedHashMap<>();
      for (int t = 0; t < nt; t++) {
        if (r.member(t)) {
          busy.put(threads[t].name, r.busy(t));
        }
      }
      RegionDef def = defs.region(r.regionId);
      regions.add(
          new RegionResult(
              def != null ? def.name() : "region " + r.regionId,
              def != null ? def.location() : "",
              r.instances(),
              busy,
              Math.round(m.index() * 10_000) / 10_000.0,
              m.lost()));
    }
    regions.sort(Comparator.comparingLong(RegionResult::lostNs).reversed());

    TraceInfo info =
        new TraceInfo(
            dir.toString(),
            Math.max(0, windowEnd - windowStart),
            liveThreads,
            events,
            dropped,
            new Window(windowStart, windowEnd),
            status == AnalysisResult.Status.COMPLETE,
            cut,
            AttachLimits.of(defs));
    return new AnalysisResult(
        AnalysisResult.FORMAT, status, statusDetail, info, timeNs, results, regions, notes);
  }

  /** Tells {@code sink} every non-zero cell of the replay's severity cube. */
  static void cells(Definitions defs, Replay replay, Analyzer.CellSink sink) {
    Map<Integer, List<String>> paths = new HashMap<>();
    replay.cube.forEach(
        (p, node, thread, ns) ->
            sink.cell(
                replay.properties.get(p).id(),
                paths.computeIfAbsent(node, n -> replay.tree.path(defs, n)),
                replay.threads[thread].name,
                ns));
  }

  public static double percent(long ns, long total) {
    return total > 0 ? Math.round(100_000.0 * ns / total) / 1000.0 : 0;
  }

  /** The time tree must partition each thread's lifetime; a mismatch is a bug worth a note. */
  private static void checkPartition(
      List<Property> props, ThreadState[] threads, long[][] byThread, List<String> notes) {
    Property time = null;
    for (Property p : props) {
      if (p.id().equals("time")) {
        time = p;
      }
    }
    if (time == null) {
      return;
    }
    for (ThreadState th : threads) {
      if (!th.started) {
        continue;
      }
      long sum = 0;
      for (Property p : props) {
        if (underOrIs(p, time)) {
          sum += byThread[p.index()][th.index];
        }
      }
      long life = th.end - th.begin;
      if (sum != life) {
        notes.add(
            "internal check failed: thread '"
                + th.name
                + "' has a lifetime of "
                + life
                + " ns but its time properties sum to "
                + sum
                + " ns");
      }
    }
  }

  static boolean underOrIs(Property p, Property root) {
    for (Property q = p; q != null; q = q.parent()) {
      if (q == root) {
        return true;
      }
    }
    return false;
  }
}
