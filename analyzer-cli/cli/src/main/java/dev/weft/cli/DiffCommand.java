package dev.weft.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.weft.check.AnalysisDiff;
import dev.weft.check.AnalysisDiff.PropertyRow;
import dev.weft.check.AnalysisDiff.RegionRow;
import dev.weft.check.AnalysisDiff.ThreadChanges;
import dev.weft.check.AnalysisDiff.ThreadRow;
import dev.weft.check.AnalysisFile;
import dev.weft.check.AnalysisFile.Region;
import dev.weft.check.AnalysisInputs;
import dev.weft.report.HtmlReport;
import dev.weft.report.TextReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code weft diff A B}: how the wait states changed from run A to run B: every property side by
 * side (severity, share of time, change in percentage points and relative), the regions whose
 * imbalance and lost time changed most, and per-thread changes of the properties that moved most.
 */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Compare the wait states of two runs, side by side.",
      "A (before) and B (after) are analysis JSON files (weft analyze --format json) or trace"
          + " directories. Shows every property with its change in percentage points and"
          + " relative, the regions that changed most, and per-thread changes of the properties"
          + " that moved most. --format html writes a page comparing the two (diff.html unless"
          + " -o says otherwise)."
    })
final class DiffCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "A", description = "The analysis (or trace) before.")
  Path a;

  @Parameters(index = "1", paramLabel = "B", description = "The analysis (or trace) after.")
  Path b;

  @Option(
      names = "--top",
      paramLabel = "N",
      description = "Show the N most changed regions and threads (default: ${DEFAULT-VALUE}).")
  int top = 10;

  /** Where {@code --format html} goes without {@code -o}. */
  static final Path DEFAULT_HTML = Path.of("diff.html");

  @Mixin PageFormatOption format;
  @Mixin OutputFile output;
  @Mixin ColorOption color;
  @Spec CommandSpec spec;

  /** Analyses trace directories; replaceable for tests. */
  AnalysisInputs.TraceAnalyzer analyzer = AnalysisInputs.ANALYZER;

  @Override
  public Integer call() throws IOException {
    if (top < 0) {
      throw new BadInputException("--top must be 0 or more, not " + top);
    }
    if (format.format() == ReportFormat.HTML) {
      output.defaultTo(DEFAULT_HTML);
    }
    AnalysisFile before = AnalysisInputs.load(a, analyzer);
    AnalysisFile after = AnalysisInputs.load(b, analyzer);
    if (format.format() == ReportFormat.HTML) {
      output.write(out -> HtmlReport.writeDiff(before.json(), after.json(), out));
      if (!output.isStdout()) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("weft: wrote " + output.file() + "; open it in a browser");
        err.flush();
      }
      return ExitCodes.OK;
    }
    AnalysisDiff diff = new AnalysisDiff(before, after);
    try (Writer w = output.open()) {
      if (format.format() == ReportFormat.JSON) {
        writeJson(diff, w);
      } else {
        PrintWriter out = new PrintWriter(w);
        if (output.isStdout()) {
          writeText(diff, out, color.style(), Terminal.textWidth(WeftCommand.root(spec)));
        } else {
          writeText(diff, out, Style.PLAIN, TextReport.DEFAULT_WIDTH);
        }
        out.flush();
      }
    }
    return ExitCodes.OK;
  }

  // ---- text
  // ---------------------------------------------------------------------------------------

  /**
   * The comparison as text for {@code width} columns: from 100 columns on the full layout; below,
   * narrower figures and name columns (a longer name gets a line of its own above its figures), and
   * below 80 columns the shares without the times, and regions on two lines.
   */
  private void writeText(AnalysisDiff d, PrintWriter out, Style style, int width) {
    boolean wide = width >= TextReport.DEFAULT_WIDTH;
    boolean narrow = width < 80;
    int labelW = wide ? 30 : Math.max(16, width - (narrow ? 35 : 56));
    String figures = wide ? "%11s %8s %11s %8s " : narrow ? "%s%7s %s%7s " : "%9s %7s %9s %7s ";
    int nameW = wide ? 40 : narrow ? 0 : Math.max(16, width - 56);
    int threadW = Math.max(16, Math.min(40, width - 36));
    Terminal.wrap(out, "A: ", describe(d.a()), width);
    Terminal.wrap(out, "B: ", describe(d.b()), width);
    out.println();
    out.println(
        style.bold(
            String.format(
                Locale.ROOT,
                "%-" + labelW + "s " + figures + (wide ? "%9s %9s" : "%8s %8s"),
                "Property",
                narrow ? "" : "A",
                "A %",
                narrow ? "" : "B",
                "B %",
                "Δ pp",
                "Δ rel")));
    for (PropertyRow row : d.properties()) {
      String label = "  ".repeat(row.depth()) + row.id();
      if (label.length() > labelW) {
        out.println(label);
        label = "";
      }
      String line =
          String.format(
              Locale.ROOT,
              "%-" + labelW + "s " + figures,
              label,
              narrow ? "" : row.a() == null ? "-" : Durations.format(row.aNs()),
              row.a() == null ? "-" : percent(row.aPercent()),
              narrow ? "" : row.b() == null ? "-" : Durations.format(row.bNs()),
              row.b() == null ? "-" : percent(row.bPercent()));
      out.println(line + changes(row, style, wide ? 9 : 8));
    }

    List<RegionRow> regions = d.regions(top);
    if (!regions.isEmpty()) {
      out.println();
      out.println(style.bold("Regions that changed most (lost: time lost to imbalance)"));
      // Narrow: each region's name on a line of its own, its figures indented below.
      String regionRow = narrow ? "%s%n  %17s %23s %11s" : "%-" + nameW + "s %17s %23s %11s";
      out.println(
          style.bold(
              String.format(
                  Locale.ROOT, regionRow, "Region", "Imbalance A → B", "Lost A → B", "Δ lost")));
      for (RegionRow r : regions) {
        String name =
            !narrow && r.key().length() > nameW ? r.key().substring(0, nameW - 1) + "…" : r.key();
        out.println(
            String.format(
                Locale.ROOT,
                regionRow,
                name,
                imbalance(r.a()) + " → " + imbalance(r.b()),
                lost(r.a()) + " → " + lost(r.b()),
                signed(r.deltaLostNs(), style)));
      }
    }

    List<ThreadChanges> threads = d.threadChanges(3, top);
    for (ThreadChanges tc : threads) {
      out.println();
      out.println(
          style.bold(
              String.format(
                  Locale.ROOT,
                  "%-" + threadW + "s %11s %11s %11s",
                  tc.property().id() + " by thread",
                  "A",
                  "B",
                  "Δ")));
      for (ThreadRow t : tc.threads()) {
        out.println(
            String.format(
                Locale.ROOT,
                "%-" + threadW + "s %11s %11s %11s",
                t.thread(),
                Durations.format(t.aNs()),
                Durations.format(t.bNs()),
                signed(t.deltaNs(), style)));
      }
    }
  }

  private static String describe(AnalysisFile f) {
    AnalysisFile.TraceInfo t = f.trace();
    StringBuilder s = new StringBuilder(f.source());
    if (!t.path().isEmpty() && !t.path().equals(f.source())) {
      s.append(" (trace ").append(t.path()).append(')');
    }
    s.append(": ").append(Durations.format(t.durationNs()));
    s.append(", ").append(t.threads()).append(" threads");
    s.append(", ").append(t.events()).append(" events");
    if (t.dropped() > 0) {
      s.append(", ").append(t.dropped()).append(" dropped");
    }
    return s.toString();
  }

  /** The change in points and relative, each {@code columns} wide. */
  private static String changes(PropertyRow row, Style style, int columns) {
    double pp = row.deltaPoints();
    String points = String.format(Locale.ROOT, "%+" + columns + ".2f", pp);
    Double rel = row.deltaRelative();
    String relative;
    if (rel == null) {
      relative = row.bPercent() == 0 ? "-" : "new";
    } else {
      relative = String.format(Locale.ROOT, "%+.1f %%", rel * 100);
    }
    String text = points + " " + String.format(Locale.ROOT, "%" + columns + "s", relative);
    if (AnalysisDiff.isWork(row.id()) || Math.abs(pp) < 0.005) {
      return text;
    }
    // More waiting is worse: red; less is better: green.
    return pp > 0 ? style.red(text) : style.green(text);
  }

  private static String percent(double p) {
    return String.format(Locale.ROOT, "%.2f", p);
  }

  private static String imbalance(Region r) {
    return r == null ? "-" : String.format(Locale.ROOT, "%.2f", r.imbalance());
  }

  private static String lost(Region r) {
    return r == null ? "-" : Durations.format(r.lostNs());
  }

  private static String signed(long nanos, Style style) {
    String s = (nanos > 0 ? "+" : "") + Durations.format(nanos);
    return nanos > 0 ? style.red(s) : nanos < 0 ? style.green(s) : s;
  }

  // ---- JSON
  // ---------------------------------------------------------------------------------------

  private void writeJson(AnalysisDiff d, Writer w) throws IOException {
    JsonGenerator g = new JsonFactory().createGenerator(w).useDefaultPrettyPrinter();
    g.writeStartObject();
    g.writeStringField("format", "weft-diff/1");
    side(g, "a", d.a());
    side(g, "b", d.b());
    g.writeArrayFieldStart("properties");
    for (PropertyRow row : d.properties()) {
      g.writeStartObject();
      g.writeStringField("id", row.id());
      g.writeStringField("name", row.name());
      if (row.parent() == null) {
        g.writeNullField("parent");
      } else {
        g.writeStringField("parent", row.parent());
      }
      severity(g, "a", row.a());
      severity(g, "b", row.b());
      g.writeNumberField("delta_ns", row.bNs() - row.aNs());
      g.writeNumberField("delta_pp", row.deltaPoints());
      Double rel = row.deltaRelative();
      if (rel == null) {
        g.writeNullField("delta_relative");
      } else {
        g.writeNumberField("delta_relative", rel);
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("regions");
    for (RegionRow r : d.regions(top)) {
      g.writeStartObject();
      g.writeStringField("name", r.name());
      g.writeStringField("location", r.location());
      region(g, "a", r.a());
      region(g, "b", r.b());
      g.writeNumberField("delta_lost_ns", r.deltaLostNs());
      g.writeNumberField("delta_imbalance", r.deltaImbalance());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeArrayFieldStart("threads");
    for (ThreadChanges tc : d.threadChanges(3, top)) {
      g.writeStartObject();
      g.writeStringField("property", tc.property().id());
      g.writeArrayFieldStart("by_thread");
      for (ThreadRow t : tc.threads()) {
        g.writeStartObject();
        g.writeStringField("thread", t.thread());
        g.writeNumberField("a_ns", t.aNs());
        g.writeNumberField("b_ns", t.bNs());
        g.writeNumberField("delta_ns", t.deltaNs());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
    g.writeRaw('\n');
    g.flush();
  }

  private static void side(JsonGenerator g, String name, AnalysisFile f) throws IOException {
    g.writeObjectFieldStart(name);
    g.writeStringField("source", f.source());
    g.writeStringField("trace", f.trace().path());
    g.writeNumberField("duration_ns", f.trace().durationNs());
    g.writeNumberField("time_ns", f.timeNs());
    g.writeEndObject();
  }

  private static void severity(JsonGenerator g, String name, AnalysisFile.Property p)
      throws IOException {
    if (p == null) {
      g.writeNullField(name);
      return;
    }
    g.writeObjectFieldStart(name);
    g.writeNumberField("severity_ns", p.severityNs());
    g.writeNumberField("percent", p.percent());
    g.writeEndObject();
  }

  private static void region(JsonGenerator g, String name, Region r) throws IOException {
    if (r == null) {
      g.writeNullField(name);
      return;
    }
    g.writeObjectFieldStart(name);
    g.writeNumberField("instances", r.instances());
    g.writeNumberField("imbalance", r.imbalance());
    g.writeNumberField("lost_ns", r.lostNs());
    g.writeEndObject();
  }
}
