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
   */
  public record Cell(
      String property,
      String parent,
      String propertyPath,
      List<String> callpath,
      String thread,
      long timeNs) {
    public Cell {
      callpath = List.copyOf(callpath);
    }
  }

  /** Collects the cells an analysis reports through {@code Analyzer.Options.withCells}. */
  public static final class CellCollector implements dev.weft.analysis.Analyzer.CellSink {
    private final List<String[]> keys = new ArrayList<>();
    private final List<List<String>> paths = new ArrayList<>();
    private final List<Long> values = new ArrayList<>();

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
                cells.values.get(i)));
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
