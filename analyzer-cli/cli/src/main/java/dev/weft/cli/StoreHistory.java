package dev.weft.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.PropertyRegistry;
import dev.weft.analysis.Results;
import dev.weft.check.AnalysisFile;
import dev.weft.store.History;
import dev.weft.store.RunSources;
import dev.weft.store.StoreException;
import dev.weft.store.StoreReader;
import dev.weft.store.StoredRun;
import dev.weft.trace.Definitions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code weft check --history DIR --last N}: the store's last runs of a program as the analyses
 * {@code weft check} compares with, rebuilt from their cells (inclusive severities summed over each
 * property's subtree, shares of the run's thread time, exclusive by-thread and by-call-path lists).
 * And the history section of the HTML report of {@code weft analyze --store DIR --format html}.
 */
final class StoreHistory {
  /** Properties the report's history shows: the largest parts of the run's time. */
  static final int REPORT_PROPERTIES = 4;

  private StoreHistory() {}

  /**
   * The history the HTML report shows for {@code run}, just stored in {@code dir}: the last {@code
   * last} runs of its program, with the {@value #REPORT_PROPERTIES} properties directly under
   * {@code time} that have the most time in this run.
   */
  static JsonNode forReport(
      Path dir, StoredRun run, AnalysisResult result, int last, PrintWriter err)
      throws StoreException {
    List<String> top =
        result.properties().stream()
            .filter(p -> "time".equals(p.parent()) && p.threadTime() && p.severityNs() > 0)
            .sorted(Comparator.comparingLong(AnalysisResult.PropertyResult::severityNs).reversed())
            .limit(REPORT_PROPERTIES)
            .map(AnalysisResult.PropertyResult::id)
            .toList();
    try (StoreReader store = StoreReader.open(dir, false)) {
      StoreCommands.warnSkipped(store, err);
      return History.of(store.connection(), run.mainClass(), last, run.runId(), top)
          .toJson(dir.toString());
    } catch (SQLException e) {
      throw new StoreException(StoreCommands.oneLine(e));
    }
  }

  /** The main class recorded by the trace behind {@code current}, or null. */
  static String mainClass(Path input, AnalysisFile current) {
    Path trace = Files.isDirectory(input) ? input : null;
    if (trace == null && current.trace() != null && current.trace().path() != null) {
      trace = Path.of(current.trace().path());
    }
    Definitions defs = trace == null ? null : RunSources.definitions(trace);
    return defs == null || defs.process() == null ? null : defs.process().mainClass();
  }

  /** The last {@code last} runs of {@code mainClass} in the store in {@code dir}, oldest first. */
  static List<AnalysisFile> lastRuns(
      Path dir, String mainClass, int last, boolean skipDamaged, PrintWriter err)
      throws StoreException {
    try (StoreReader store = StoreReader.open(dir, skipDamaged)) {
      StoreCommands.warnSkipped(store, err);
      Connection c = store.connection();
      Map<String, Run> runs = new LinkedHashMap<>();
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT run_id, duration_ns, thread_time_ns FROM (SELECT *, coalesce(started_at_ns,"
                  + " stored_at_ns) AS t FROM runs WHERE main_class = ? ORDER BY t DESC,"
                  + " stored_at_ns DESC, run_id DESC LIMIT ?) ORDER BY t, stored_at_ns, run_id")) {
        ps.setString(1, mainClass);
        ps.setInt(2, last);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            runs.put(rs.getString(1), new Run(rs.getLong(2), rs.getLong(3)));
          }
        }
      }
      if (runs.isEmpty()) {
        return List.of();
      }
      try (PreparedStatement ps =
          c.prepareStatement(
              "WITH r AS (SELECT run_id FROM (SELECT run_id, coalesce(started_at_ns, stored_at_ns)"
                  + " AS t, stored_at_ns FROM runs WHERE main_class = ?"
                  + " ORDER BY t DESC, stored_at_ns DESC, run_id DESC LIMIT ?))"
                  + " SELECT run_id, property, property_path, thread, callpath, sum(time_ns) FROM"
                  + " results JOIN r USING (run_id) GROUP BY ALL")) {
        ps.setString(1, mainClass);
        ps.setInt(2, last);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            Run run = runs.get(rs.getString(1));
            run.add(
                rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getLong(6));
          }
        }
      }
      List<AnalysisFile> out = new ArrayList<>();
      runs.forEach((id, run) -> out.add(run.analysis(dir + " run " + id)));
      return out;
    } catch (SQLException e) {
      throw new StoreException(StoreCommands.oneLine(e));
    }
  }

  /**
   * One run standing for {@code runs}: each property at its median share over them (for an odd
   * count the middle run's figures, by-thread and by-call-path lists included; for an even count
   * the upper middle's). A single current run is compared with it, as one run with one.
   */
  static AnalysisFile median(List<AnalysisFile> runs, String source) {
    List<AnalysisFile.Property> props = new ArrayList<>();
    for (AnalysisFile.Property p : runs.get(runs.size() - 1).properties()) {
      List<AnalysisFile.Property> all = new ArrayList<>();
      for (AnalysisFile run : runs) {
        run.properties().stream().filter(q -> q.id().equals(p.id())).forEach(all::add);
      }
      all.sort(
          (a, b) ->
              a.percent() != b.percent()
                  ? Double.compare(a.percent(), b.percent())
                  : Long.compare(a.severityNs(), b.severityNs()));
      props.add(all.get(all.size() / 2));
    }
    long[] times = runs.stream().mapToLong(AnalysisFile::timeNs).sorted().toArray();
    AnalysisFile last = runs.get(runs.size() - 1);
    return AnalysisFile.of(source, last.trace(), times[times.length / 2], props);
  }

  /** One stored run's cells, summed by property and thread, and by property and call path. */
  private static final class Run {
    final long durationNs;
    final long timeNs;
    final Map<String, Long> inclusive = new HashMap<>();
    final Map<String, Map<String, Long>> byThread = new HashMap<>();
    final Map<String, Map<List<String>, Long>> byCallpath = new HashMap<>();

    Run(long durationNs, long timeNs) {
      this.durationNs = durationNs;
      this.timeNs = timeNs;
    }

    void add(String property, String path, String thread, String callpath, long ns) {
      for (String ancestor : path.split("/")) {
        if (!ancestor.isEmpty()) {
          inclusive.merge(ancestor, ns, Long::sum);
        }
      }
      if (thread != null) {
        byThread.computeIfAbsent(property, k -> new HashMap<>()).merge(thread, ns, Long::sum);
      }
      List<String> frames =
          callpath == null || callpath.isEmpty() ? List.of() : Arrays.asList(callpath.split(" > "));
      byCallpath.computeIfAbsent(property, k -> new HashMap<>()).merge(frames, ns, Long::sum);
    }

    AnalysisFile analysis(String source) {
      List<AnalysisFile.Property> props = new ArrayList<>();
      for (PropertyInfo info : PropertyRegistry.infos()) {
        String id = info.id();
        long ns = id.equals("time") ? timeNs : inclusive.getOrDefault(id, 0L);
        double percent = info.unit().equals("ns") ? Results.percent(ns, timeNs) : 0;
        List<AnalysisFile.ThreadShare> threads = new ArrayList<>();
        byThread
            .getOrDefault(id, Map.of())
            .forEach((t, v) -> threads.add(new AnalysisFile.ThreadShare(t, v)));
        threads.sort((a, b) -> Long.compare(b.severityNs(), a.severityNs()));
        List<AnalysisFile.CallpathShare> paths = new ArrayList<>();
        byCallpath
            .getOrDefault(id, Map.of())
            .forEach((p, v) -> paths.add(new AnalysisFile.CallpathShare(p, v)));
        paths.sort((a, b) -> Long.compare(b.severityNs(), a.severityNs()));
        props.add(
            new AnalysisFile.Property(
                id,
                info.parent().isEmpty() ? null : info.parent(),
                info.name(),
                ns,
                percent,
                threads,
                paths));
      }
      return AnalysisFile.of(
          source, new AnalysisFile.TraceInfo(source, durationNs, 0, 0, 0), timeNs, props);
    }
  }
}
