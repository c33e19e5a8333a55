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
    for (Property p : props) {
      notes.addAll(p.notes());
    }

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
      boolean threadTime = prop.threadTime();
      results.add(
          new PropertyResult(
              prop.id(),
              prop.parent() == null ? null : prop.parent().id(),
              prop.info().name(),
              inclusive[p],
              threadTime ? percent(inclusive[p], timeNs) : 0,
              ts,
              cs,
              prop.causes(),
              threadTime ? null : prop.info().unit(),
              latency(prop.latency(), replay.tree, defs),
              prop.timeline(windowStart, windowEnd, t -> threads[t].name)));
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
        AnalysisResult.FORMAT,
        status,
        statusDetail,
        info,
        timeNs,
        results,
        regions,
        notes,
        criticalPath(replay, defs));
  }

  /** The critical path: the chain that ends where the run ends ({@link CriticalPath#pathEnd}). */
  private static AnalysisResult.CriticalPath criticalPath(Replay replay, Definitions defs) {
    CriticalPath critical = replay.criticalPath();
    int end = critical.pathEnd();
    if (end < 0) {
      return null;
    }
    Map<Long, Long> onPath = critical.breakdown(end);
    ThreadState[] threads = replay.threads;
    long[] byThread = new long[threads.length];
    Map<Integer, Long> byNode = new HashMap<>();
    long length = 0;
    for (Map.Entry<Long, Long> e : onPath.entrySet()) {
      byThread[CriticalPath.thread(e.getKey())] += e.getValue();
      byNode.merge(CriticalPath.node(e.getKey()), e.getValue(), Long::sum);
      length += e.getValue();
    }
    // Mean execution per thread at each call path, over the threads that executed there.
    int execution = -1;
    for (Property p : replay.properties) {
      if (p.id().equals("execution")) {
        execution = p.index();
      }
    }
    Map<Integer, long[]> exec = new HashMap<>(); // node -> {sum, threads}
    int executionIndex = execution;
    replay.cube.forEach(
        (p, node, thread, ns) -> {
          if (p == executionIndex && byNode.containsKey(node) && ns > 0) {
            long[] a = exec.computeIfAbsent(node, k -> new long[2]);
            a[0] += ns;
            a[1]++;
          }
        });
    List<AnalysisResult.CriticalThread> ts = new ArrayList<>();
    for (int t = 0; t < threads.length; t++) {
      if (byThread[t] > 0) {
        ts.add(new AnalysisResult.CriticalThread(threads[t].name, byThread[t]));
      }
    }
    ts.sort(Comparator.comparingLong(AnalysisResult.CriticalThread::ns).reversed());
    PathPieces pieces = critical.pieces(end);
    // The path's waits and hand-overs at each call path (from its pieces, so the part of the path
    // left out is not counted): balancing work cannot shorten them.
    Map<Integer, Long> notWork = new HashMap<>();
    for (int i = 0; i < pieces.size; i++) {
      if (!CriticalPath.kindName(pieces.kinds[i]).equals("work")) {
        notWork.merge(
            CriticalPath.node(pieces.keys[i]), pieces.ends[i] - pieces.starts[i], Long::sum);
      }
    }
    List<AnalysisResult.CriticalCallPath> cs = new ArrayList<>();
    for (Map.Entry<Integer, Long> e : byNode.entrySet()) {
      long[] a = exec.get(e.getKey());
      // Time outside any recorded region is no shared work: balancing it means nothing.
      long mean =
          a == null || a[1] == 0 || e.getKey() == CallPathTree.ROOT ? e.getValue() : a[0] / a[1];
      long work = Math.max(0, e.getValue() - notWork.getOrDefault(e.getKey(), 0L));
      cs.add(
          new AnalysisResult.CriticalCallPath(
              replay.tree.path(defs, e.getKey()), e.getValue(), Math.max(0, work - mean)));
    }
    cs.sort(
        Comparator.comparingLong(AnalysisResult.CriticalCallPath::ns)
            .reversed()
            .thenComparing(c -> String.join("/", c.path())));
    List<AnalysisResult.CriticalSegment> segments = new ArrayList<>(pieces.size);
    for (int i = 0; i < pieces.size; i++) {
      long key = pieces.keys[i];
      segments.add(
          new AnalysisResult.CriticalSegment(
              threads[CriticalPath.thread(key)].name,
              pieces.starts[i],
              pieces.ends[i],
              replay.tree.path(defs, CriticalPath.node(key)),
              CriticalPath.kindName(pieces.kinds[i])));
    }
    return new AnalysisResult.CriticalPath(
        length, ts, cs, segments, pieces.truncated, pieces.truncatedNs);
  }

  private static AnalysisResult.Latency latency(
      LatencyTable table, CallPathTree tree, Definitions defs) {
    if (table == null) {
      return null;
    }
    LatencyHistogram a = table.all();
    List<AnalysisResult.PoolLatency> pools = new ArrayList<>();
    table
        .byPool()
        .forEach(
            (pool, h) ->
                pools.add(
                    new AnalysisResult.PoolLatency(
                        pool, h.count(), h.mean(), h.quantile(0.95), h.max(), h.sum())));
    pools.sort(Comparator.comparingLong(AnalysisResult.PoolLatency::totalNs).reversed());
    List<AnalysisResult.PathLatency> paths = new ArrayList<>();
    table
        .byCallpath()
        .forEach(
            (k, h) ->
                paths.add(
                    new AnalysisResult.PathLatency(
                        tree.path(defs, k.node()),
                        k.pool(),
                        h.count(),
                        h.mean(),
                        h.quantile(0.95),
                        h.max(),
                        h.sum())));
    paths.sort(Comparator.comparingLong(AnalysisResult.PathLatency::totalNs).reversed());
    return new AnalysisResult.Latency(
        new AnalysisResult.LatencyFigures(a.count(), a.mean(), a.quantile(0.95), a.max()),
        pools,
        paths);
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
