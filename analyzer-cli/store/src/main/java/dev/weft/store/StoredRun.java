package dev.weft.store;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.AnalysisResult.CallPathSeverity;
import dev.weft.analysis.AnalysisResult.PropertyResult;
import dev.weft.trace.Definitions;
import dev.weft.trace.ProcessDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One run as the store keeps it: a row of {@code runs} and its cells in {@code results}.
 *
 * @param startedAtNs wall clock of the analysed window's start (ns since 1970), null when unknown
 * @param labels {@code --label key=value} pairs and the trace's own attributes
 */
public record StoredRun(
    String runId,
    Long startedAtNs,
    long durationNs,
    long timeNs,
    String host,
    String jvm,
    String mainClass,
    String status,
    Map<String, String> labels,
    List<Cell> cells) {

  public StoredRun {
    labels = Map.copyOf(labels);
    cells = List.copyOf(cells);
  }

  /**
   * One exclusive severity cell.
   *
   * @param propertyPath the property's ancestors and itself, {@code "/time/.../id/"}, so that
   *     {@code property_path LIKE '%/wait/%'} selects a subtree
   * @param thread the thread's name, null when the run was stored from an analysis JSON document
   *     (which keeps threads and call paths apart)
   * @param count how many waits (tasks, for {@code pool_queue_wait}) the cell holds; null for
   *     execution, idle time, the roots outside {@code time} that are not waits, and runs stored
   *     from an analysis JSON document
   */
  public record Cell(
      String property,
      String parent,
      String propertyPath,
      List<String> callpath,
      String thread,
      long timeNs,
      Long count) {
    public Cell {
      callpath = List.copyOf(callpath);
    }

    /** A cell without a count. */
    public Cell(
        String property,
        String parent,
        String propertyPath,
        List<String> callpath,
        String thread,
        long timeNs) {
      this(property, parent, propertyPath, callpath, thread, timeNs, null);
    }
  }

  /**
   * Collects the cells an analysis reports through {@code Analyzer.Options.withCells}, and counts
   * the waits in each through {@code withWaits}: give it to both ({@link #options}).
   */
  public static final class CellCollector
      implements dev.weft.analysis.Analyzer.CellSink, dev.weft.analysis.Analyzer.WaitSink {
    private final List<String[]> keys = new ArrayList<>();
    private final List<List<String>> paths = new ArrayList<>();
    private final List<Long> values = new ArrayList<>();
    private final Map<WaitCell, long[]> counts = new HashMap<>();
    private final Map<Integer, List<String>> nodePaths = new HashMap<>();

    private record WaitCell(String property, List<String> callpath, String thread) {}

    /** {@code options} with this collector told the cells and the waits. */
    public dev.weft.analysis.Analyzer.Options options(dev.weft.analysis.Analyzer.Options options) {
      return options.withCells(this).withWaits(this);
    }

    @Override
    public void wait(dev.weft.analysis.CountedWait w) {
      List<String> path = nodePaths.computeIfAbsent(w.node(), n -> w.callpath());
      counts
          .computeIfAbsent(new WaitCell(w.property(), path, w.threadName()), k -> new long[1])[0]++;
    }

    private Long count(String property, List<String> callpath, String thread) {
      long[] n = counts.get(new WaitCell(property, callpath, thread));
      return n == null ? null : n[0];
    }

    @Override
    public void cell(String property, List<String> callpath, String thread, long ns) {
      keys.add(new String[] {property, thread});
      paths.add(callpath);
      values.add(ns);
    }
  }

  /**
   * The run of an analysis.
   *
   * @param cells the cells of the analysis (with threads), or null to use the result's by-call-path
   *     sums (thread null)
   * @param defs the analysed trace's definitions (host, JVM, main class, clock), or null when the
   *     trace is gone
   */
  public static StoredRun of(
      AnalysisResult result, CellCollector cells, Definitions defs, Map<String, String> labels) {
    Map<String, PropertyResult> byId = new HashMap<>();
    for (PropertyResult p : result.properties()) {
      byId.put(p.id(), p);
    }
    Map<String, String> paths = new HashMap<>();
    for (PropertyResult p : result.properties()) {
      StringBuilder path = new StringBuilder("/");
      List<String> chain = new ArrayList<>();
      for (PropertyResult q = p; q != null; q = q.parent() == null ? null : byId.get(q.parent())) {
        chain.add(0, q.id());
      }
      for (String id : chain) {
        path.append(id).append('/');
      }
      paths.put(p.id(), path.toString());
    }
    List<Cell> out = new ArrayList<>();
    if (cells != null) {
      for (int i = 0; i < cells.values.size(); i++) {
        String id = cells.keys.get(i)[0];
        PropertyResult p = byId.get(id);
        out.add(
            new Cell(
                id,
                p == null ? null : p.parent(),
                paths.getOrDefault(id, "/" + id + "/"),
                cells.paths.get(i),
                cells.keys.get(i)[1],
                cells.values.get(i),
                cells.count(id, cells.paths.get(i), cells.keys.get(i)[1])));
      }
    } else {
      for (PropertyResult p : result.properties()) {
        for (CallPathSeverity c : p.byCallpath()) {
          out.add(new Cell(p.id(), p.parent(), paths.get(p.id()), c.path(), null, c.severityNs()));
        }
      }
    }
    Map<String, String> all = new LinkedHashMap<>();
    String host = null;
    String jvm = null;
    String mainClass = null;
    Long started = null;
    if (defs != null) {
      all.putAll(defs.attributes());
      ProcessDef proc = defs.process();
      if (proc != null) {
        host = proc.host();
        jvm = proc.vmName() + " " + proc.jdkVersion();
        mainClass = proc.mainClass();
      }
      if (defs.clock() != null && result.trace() != null && result.trace().window() != null) {
        started = defs.clock().toEpochNanos(result.trace().window().startNs());
      }
    }
    all.putAll(labels);
    return new StoredRun(
        UUID.randomUUID().toString(),
        started,
        result.trace() == null ? 0 : result.trace().durationNs(),
        result.timeNs(),
        host,
        jvm,
        mainClass,
        result.status().id(),
        all,
        out);
  }
}
