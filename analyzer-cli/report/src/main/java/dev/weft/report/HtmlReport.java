package dev.weft.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.PropertyRegistry;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes the analysis of a trace as one self-contained HTML page (inline CSS, script and data; no
 * network access): the property tree, the call-path tree and the thread distribution of the
 * selected property (linked like CUBE's three panes), a timeline of all threads (like Vampir's),
 * the table of parallel regions with their load balance, and the analysis notes. {@link #writeDiff}
 * compares two analyses on one page.
 *
 * <p>The page is the template {@code report.html} with {@code report.css} and {@code report.js}
 * from this package's resources, and the data as JSON in a {@code <script type="application/json">}
 * element. See {@code analyzer-cli/REPORT.md}.
 */
public final class HtmlReport {
  /** The analysis format this report reads. */
  public static final String ANALYSIS_FORMAT = "weft-analysis/1";

  private static final String RESOURCES = "/dev/weft/report/";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private HtmlReport() {}

  /**
   * Writes the report of one analysis.
   *
   * @param analysis the analysis JSON ({@value #ANALYSIS_FORMAT})
   * @param traceDir the analysed trace, read again for the timeline; null for a page without one
   * @param out receives the page (UTF-8); not closed
   * @throws IllegalArgumentException if {@code analysis} is not a {@value #ANALYSIS_FORMAT} object
   * @throws dev.weft.trace.TraceFormatException if {@code traceDir} is not a readable trace
   */
  public static void write(JsonNode analysis, Path traceDir, OutputStream out) throws IOException {
    write(analysis, traceDir, out, TimelineLimits.defaults());
  }

  /** As {@link #write(JsonNode, Path, OutputStream)}, with the timeline's size limits. */
  public static void write(
      JsonNode analysis, Path traceDir, OutputStream out, TimelineLimits limits)
      throws IOException {
    write(analysis, traceDir, out, limits, null);
  }

  /**
   * As above, with the history of the program's runs in a store (a section drawn by {@code
   * history.js}; REPORT.md gives its fields), or null for a page without one.
   */
  public static void write(
      JsonNode analysis, Path traceDir, OutputStream out, TimelineLimits limits, JsonNode history)
      throws IOException {
    check(analysis, "analysis");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(limits, "limits");
    Timeline timeline = null;
    if (traceDir != null) {
      // The analysis of a salvaged trace says so; its timeline shows the same valid part.
      boolean partial = analysis.path("status").asText("").equals("partial");
      try (Trace trace = partial ? Trace.openSalvaging(traceDir) : Trace.open(traceDir)) {
        timeline = TimelineReader.read(trace, limits);
      }
    }
    Timeline shown = timeline;
    page(
        out,
        "report",
        g -> {
          g.writeFieldName("analysis");
          MAPPER.writeTree(g, analysis);
          // Threads ready for work that had not come: the page starts on a wait that holds work
          // up, as the text report's worst properties do.
          g.writeArrayFieldStart("ready_for_work");
          for (PropertyInfo info : PropertyRegistry.infos()) {
            if (info.readyForWork()) {
              g.writeString(info.id());
            }
          }
          g.writeEndArray();
          g.writeFieldName("timeline");
          if (shown == null) {
            g.writeNull();
          } else {
            shown.write(g);
          }
          if (history != null) {
            g.writeFieldName("history");
            MAPPER.writeTree(g, history);
          }
        });
  }

  /**
   * Writes a page comparing two analyses: the property tree with both values and their difference,
   * and the parallel regions of both.
   *
   * @param a the baseline analysis
   * @param b the analysis compared with it
   * @param out receives the page (UTF-8); not closed
   * @throws IllegalArgumentException if either is not a {@value #ANALYSIS_FORMAT} object
   */
  public static void writeDiff(JsonNode a, JsonNode b, OutputStream out) throws IOException {
    check(a, "first analysis");
    check(b, "second analysis");
    Objects.requireNonNull(out, "out");
    page(
        out,
        "diff",
        g -> {
          g.writeFieldName("a");
          MAPPER.writeTree(g, a);
          g.writeFieldName("b");
          MAPPER.writeTree(g, b);
        });
  }

  private static void check(JsonNode analysis, String what) {
    Objects.requireNonNull(analysis, what);
    if (!analysis.isObject()) {
      throw new IllegalArgumentException(what + " is not a JSON object");
    }
    String format = analysis.path("format").asText("");
    if (!format.equals(ANALYSIS_FORMAT)) {
      throw new IllegalArgumentException(
          what + " has format \"" + format + "\", expected \"" + ANALYSIS_FORMAT + "\"");
    }
  }

  /** The data part of a page. */
  private interface Data {
    void write(JsonGenerator g) throws IOException;
  }

  private static void page(OutputStream out, String kind, Data data) throws IOException {
    String html = resource("report.html");
    String css = resource("report.css") + resource("history.css");
    // history.js first: it only defines the function report.js calls when there is a history.
    String js = resource("history.js") + resource("report.js");
    int cssAt = html.indexOf("/*@CSS@*/");
    int dataAt = html.indexOf("@DATA@");
    int jsAt = html.indexOf("/*@JS@*/");
    if (cssAt < 0 || dataAt < cssAt || jsAt < dataAt) {
      throw new IllegalStateException("report.html: placeholders missing or out of order");
    }
    write(out, html.substring(0, cssAt));
    write(out, css);
    write(out, html.substring(cssAt + "/*@CSS@*/".length(), dataAt));
    JsonGenerator g = MAPPER.getFactory().createGenerator(out, JsonEncoding.UTF8);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    g.setCharacterEscapes(new ScriptSafeEscapes());
    g.writeStartObject();
    g.writeStringField("page", kind);
    String version = HtmlReport.class.getPackage().getImplementationVersion();
    g.writeStringField("version", version == null ? "dev" : version);
    data.write(g);
    g.writeEndObject();
    g.flush();
    write(out, html.substring(dataAt + "@DATA@".length(), jsAt));
    write(out, js);
    write(out, html.substring(jsAt + "/*@JS@*/".length()));
    out.flush();
  }

  private static void write(OutputStream out, String s) throws IOException {
    out.write(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String resource(String name) {
    try (InputStream in = HtmlReport.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCES + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Escapes what could end or confuse the inline script element holding the data: {@code <}, {@code
   * >} and {@code &} (so no string can contain {@code </script>} or {@code <!--}), and the line
   * separators U+2028/U+2029.
   */
  private static final class ScriptSafeEscapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private final int[] table;

    ScriptSafeEscapes() {
      table = standardAsciiEscapesForJSON();
      table['<'] = ESCAPE_STANDARD;
      table['>'] = ESCAPE_STANDARD;
      table['&'] = ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return table;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      if (ch == 0x2028) {
        return new SerializedString("\\u2028");
      }
      if (ch == 0x2029) {
        return new SerializedString("\\u2029");
      }
      return null;
    }
  }
}
