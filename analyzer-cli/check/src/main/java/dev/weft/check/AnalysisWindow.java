package dev.weft.check;

import dev.weft.analysis.AnalysisJson;
import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.check.AnalysisFile.CallpathShare;
import dev.weft.check.AnalysisFile.Property;
import dev.weft.check.AnalysisFile.ThreadShare;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened between two analyses of one trace that is still being recorded: every severity and
 * the total time of the later analysis minus those of the earlier one, so the percentages are
 * shares of the time in between. How {@code @WeftBudget} analyses one test's time window without
 * stopping the recording.
 *
 * <p>Both analyses see the trace cut where it was when they read it, and count a wait still open
 * there up to that cut, so the difference counts such a wait exactly for its part inside the
 * window.
 */
public final class AnalysisWindow {
  private AnalysisWindow() {}

  /**
   * Analyses a trace that is still being recorded, possibly by this very JVM. Each thread's stream
   * may be in the middle of an event where the reader reaches it (the analysing thread records into
   * its own stream while it reads), so the trace is read as far as it is whole: unfinished tails
   * are left out instead of failing as damage.
   *
   * @throws dev.weft.trace.TraceFormatException when it is not a Weft trace at all
   */
  public static AnalysisFile analyseLive(Path traceDir) {
    AnalysisResult r = Analyzer.analyze(traceDir, Analyzer.Options.defaults().withSalvage(true));
    return AnalysisFile.parse(traceDir.toString(), AnalysisJson.toJson(r));
  }

  /**
   * {@code after} minus {@code before}; {@code before} must be an earlier analysis of the trace.
   */
  public static AnalysisFile between(AnalysisFile before, AnalysisFile after, String source) {
    long time = Math.max(0, after.timeNs() - before.timeNs());
    List<Property> properties = new ArrayList<>();
    for (Property p : after.properties()) {
      Property old = before.property(p.id());
      long ns = Math.max(0, p.severityNs() - (old == null ? 0 : old.severityNs()));
      Map<String, Long> threads = new LinkedHashMap<>();
      p.byThread().forEach(t -> threads.merge(t.thread(), t.severityNs(), Long::sum));
      if (old != null) {
        old.byThread().forEach(t -> threads.merge(t.thread(), -t.severityNs(), Long::sum));
      }
      Map<List<String>, Long> paths = new LinkedHashMap<>();
      p.byCallpath().forEach(c -> paths.merge(c.path(), c.severityNs(), Long::sum));
      if (old != null) {
        old.byCallpath().forEach(c -> paths.merge(c.path(), -c.severityNs(), Long::sum));
      }
      List<ThreadShare> byThread = new ArrayList<>();
      threads.forEach(
          (t, v) -> {
            if (v > 0) {
              byThread.add(new ThreadShare(t, v));
            }
          });
      List<CallpathShare> byCallpath = new ArrayList<>();
      paths.forEach(
          (c, v) -> {
            if (v > 0) {
              byCallpath.add(new CallpathShare(c, v));
            }
          });
      double percent = time == 0 ? 0 : ns * 100.0 / time;
      properties.add(new Property(p.id(), p.parent(), p.name(), ns, percent, byThread, byCallpath));
    }
    AnalysisFile.TraceInfo t = after.trace();
    return AnalysisFile.of(
        source,
        new AnalysisFile.TraceInfo(
            t.path(),
            Math.max(0, t.durationNs() - before.trace().durationNs()),
            t.threads(),
            Math.max(0, t.events() - before.trace().events()),
            Math.max(0, t.dropped() - before.trace().dropped())),
        time,
        properties);
  }
}
