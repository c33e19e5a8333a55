package dev.weft.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.weft.analysis.TimeText;
import dev.weft.report.TextReport;
import dev.weft.trace.ClockDef;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventKind;
import dev.weft.trace.PoolDef;
import dev.weft.trace.ProcessDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.ThreadJvmCounts;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code weft summary TRACE}: what a trace holds (like {@code jfr summary}): duration, threads and
 * pools, events and bytes per kind, drops, whether it was closed cleanly, and the traced process.
 *
 * <p>{@code --format json} is a stable contract whose first keys are, in this order: {@code
 * duration_ns}, {@code threads}, {@code events} (every {@link EventKind#id()}, 0 when absent),
 * {@code bytes_per_event} and {@code dropped}. More keys follow them.
 */
@Command(
    name = "summary",
    mixinStandardHelpOptions = true,
    description = {
      "Summarise a trace: threads, event counts, drops, clean or cut.",
      "Shows the duration, threads and pools, event counts and bytes per kind, dropped events,"
          + " whether the trace was closed cleanly, and the traced process (JDK, pid, command"
          + " line). --format json is a stable contract for scripts."
    })
final class SummaryCommand implements Callable<Integer> {
  @Mixin TraceArgument trace;
  @Mixin ReportFormatOption format;
  @Mixin OutputFile output;
  @Mixin ColorOption color;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    try (Trace t = trace.open()) {
      TraceStats stats = TraceStats.of(t);
      t.requireIntact();
      try (Writer w = output.open()) {
        if (format.format() == ReportFormat.JSON) {
          writeJson(t, stats, w);
        } else {
          PrintWriter out = new PrintWriter(w);
          if (output.isStdout()) {
            writeText(t, stats, out, color.style(), Terminal.textWidth(WeftCommand.root(spec)));
          } else {
            writeText(t, stats, out, Style.PLAIN, TextReport.DEFAULT_WIDTH);
          }
          out.flush();
        }
      }
      TraceProblems.reportPartial(stats.integrity, spec.commandLine().getErr());
    }
    return ExitCodes.OK;
  }

  // ---- JSON
  // ---------------------------------------------------------------------------------------

  static void writeJson(Trace t, TraceStats s, Writer w) throws IOException {
    Definitions d = t.definitions();
    JsonGenerator g = new JsonFactory().createGenerator(w).useDefaultPrettyPrinter();
    g.writeStartObject();
    // The contract: these five keys first, in this order.
    g.writeNumberField("duration_ns", s.durationNanos());
    g.writeNumberField("threads", d.threads().size());
    g.writeObjectFieldStart("events");
    for (EventKind k : EventKind.values()) {
      g.writeNumberField(k.id(), s.events(k));
    }
    g.writeEndObject();
    g.writeNumberField("bytes_per_event", round(s.bytesPerEvent(), 3));
    g.writeNumberField("dropped", s.dropped);
    // Further facts.
    g.writeStringField("path", t.directory().toString());
    g.writeStringField("status", s.integrity.status().id());
    if (s.integrity.status() != Trace.Status.COMPLETE) {
      g.writeStringField("status_detail", s.integrity.summary());
    }
    g.writeBooleanField("closed_cleanly", d.closedCleanly());
    g.writeNumberField("total_events", s.events);
    g.writeNumberField("event_bytes", s.eventBytes);
    g.writeObjectFieldStart("bytes");
    for (EventKind k : EventKind.values()) {
      g.writeNumberField(k.id(), s.bytes(k));
    }
    g.writeEndObject();
    ClockDef clock = d.clock();
    if (clock != null && s.events > 0) {
      g.writeNumberField("start_epoch_ns", clock.toEpochNanos(s.firstTime));
    }
    ProcessDef p = d.process();
    if (p != null) {
      g.writeObjectFieldStart("process");
      g.writeNumberField("pid", p.pid());
      g.writeStringField("host", p.host());
      g.writeStringField("jdk", p.jdkVersion());
      g.writeStringField("vm", p.vmName());
      g.writeNumberField("cores", p.cores());
      g.writeStringField("main_class", p.mainClass());
      g.writeStringField("command_line", p.commandLine());
      g.writeStringField("agent_options", p.agentOptions());
      g.writeEndObject();
    }
    g.writeArrayFieldStart("pools");
    for (PoolDef pool : sortedPools(d)) {
      g.writeStartObject();
      g.writeNumberField("id", pool.id());
      g.writeStringField("kind", pool.kind().id());
      g.writeStringField("name", pool.name());
      g.writeNumberField("parallelism", pool.parallelism());
      g.writeEndObject();
    }
    g.writeEndArray();
    Map<Integer, TraceStats.StreamStats> byStream = byStream(s);
    g.writeArrayFieldStart("thread_list");
    for (ThreadDef th : d.threads()) {
      TraceStats.StreamStats ss = byStream.get(th.stream());
      g.writeStartObject();
      g.writeNumberField("stream", th.stream());
      g.writeNumberField("java_id", th.javaId());
      g.writeStringField("name", th.name());
      if (th.pool() != 0) {
        g.writeNumberField("pool", th.pool());
      }
      g.writeBooleanField("daemon", (th.flags() & ThreadDef.DAEMON) != 0);
      g.writeBooleanField("virtual", th.isVirtual());
      g.writeNumberField("events", ss == null ? 0 : ss.events());
      g.writeNumberField("dropped", ss == null ? 0 : ss.dropped());
      g.writeStringField(
          "state", ss == null ? "no_events" : ss.state().name().toLowerCase(Locale.ROOT));
      ThreadJvmCounts c = d.jvmCounts(th.stream());
      if (c != null) {
        g.writeObjectFieldStart("jvm_counts");
        g.writeNumberField("blocked", c.blockedCount());
        g.writeNumberField("waited", c.waitedCount());
        if (c.hasCpu()) {
          g.writeNumberField("cpu_ns", c.cpuNs());
        }
        if (c.hasRunQueue()) {
          g.writeNumberField("run_queue_ns", c.runQueueNs());
        }
        g.writeEndObject();
      }
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeObjectFieldStart("attributes");
    for (Map.Entry<String, String> a : d.attributes().entrySet()) {
      g.writeStringField(a.getKey(), a.getValue());
    }
    g.writeEndObject();
    g.writeArrayFieldStart("problems");
    for (String w2 : t.warnings()) {
      g.writeString(w2);
    }
    for (String pr : s.problems()) {
      g.writeString(pr);
    }
    g.writeEndArray();
    g.writeEndObject();
    g.writeRaw('\n');
    g.flush();
  }

  private static double round(double v, int digits) {
    double f = Math.pow(10, digits);
    return Math.round(v * f) / f;
  }

  // ---- text
  // ---------------------------------------------------------------------------------------

  /**
   * The summary as text for {@code width} columns: values wrap under their column, and the name
   * columns of the tables narrow (a longer name overflows its column rather than being cut).
   */
  static void writeText(Trace t, TraceStats s, PrintWriter out, Style style, int width) {
    Definitions d = t.definitions();
    int poolNameW = Math.max(16, Math.min(40, width - 37));
    out.println();
    row(out, width, "Trace", t.directory().toString());
    String status;
    switch (s.integrity.status()) {
      case COMPLETE:
        status = style.green("complete") + " (closed cleanly, every stream read to its end)";
        break;
      case CUT:
        status = style.yellow("cut") + " (" + String.join("; ", s.integrity.cut()) + ")";
        break;
      default:
        status = style.red(s.integrity.summary());
    }
    row(out, width, "Status", status);
    ClockDef clock = d.clock();
    if (clock != null && s.events > 0) {
      long epoch = clock.toEpochNanos(s.firstTime);
      row(out, width, "Start", Instant.ofEpochSecond(0, epoch).toString());
    }
    row(out, width, "Duration", TimeText.duration(s.durationNanos()));
    ProcessDef p = d.process();
    if (p != null) {
      row(
          out,
          width,
          "Process",
          "pid "
              + p.pid()
              + (p.host().isEmpty() ? "" : " on " + p.host())
              + (p.cores() > 0 ? ", " + p.cores() + " cores" : ""));
      row(
          out,
          width,
          "JDK",
          p.jdkVersion() + (p.vmName().isEmpty() ? "" : " (" + p.vmName() + ")"));
      if (!p.mainClass().isEmpty()) {
        row(out, width, "Main class", p.mainClass());
      }
      if (!p.commandLine().isEmpty()) {
        row(out, width, "Command line", p.commandLine());
      }
      if (!p.agentOptions().isEmpty()) {
        row(out, width, "Agent options", p.agentOptions());
      }
    }
    for (Map.Entry<String, String> a : d.attributes().entrySet()) {
      row(out, width, a.getKey(), a.getValue());
    }
    row(out, width, "Threads", Integer.toString(d.threads().size()));
    row(
        out,
        width,
        "Events",
        s.events
            + String.format(
                Locale.ROOT, " (%.2f bytes/event, %s)", s.bytesPerEvent(), bytes(s.eventBytes)));
    row(out, width, "Dropped", s.dropped == 0 ? "0" : style.red(Long.toString(s.dropped)));
    for (String w : t.warnings()) {
      row(out, width, "Warning", w);
    }
    for (String pr : s.problems()) {
      row(out, width, "Problem", pr);
    }

    out.println();
    threadTable(d, s, out, style, width);
    List<PoolDef> pools = sortedPools(d);
    if (!pools.isEmpty()) {
      out.println();
      out.println(
          style.bold(
              String.format(
                  Locale.ROOT,
                  " %-4s  %-" + poolNameW + "s  %-16s %11s",
                  "Pool",
                  "Name",
                  "Kind",
                  "Parallelism")));
      for (PoolDef pool : pools) {
        out.println(
            String.format(
                Locale.ROOT,
                " %4d  %-" + poolNameW + "s  %-16s %11d",
                pool.id(),
                pool.name(),
                pool.kind().id(),
                pool.parallelism()));
      }
    }
    out.println();
    out.println(
        style.bold(
            String.format(
                Locale.ROOT,
                " %-16s %14s %14s %10s",
                "Event Type",
                "Count",
                "Size (bytes)",
                "Bytes/evt")));
    out.println(" " + "=".repeat(57));
    for (EventKind k : EventKind.values()) {
      long n = s.events(k);
      String line =
          String.format(
              Locale.ROOT,
              " %-16s %14d %14d %10s",
              k.id(),
              n,
              s.bytes(k),
              n == 0 ? "-" : String.format(Locale.ROOT, "%.2f", (double) s.bytes(k) / n));
      out.println(n == 0 ? style.dim(line) : line);
    }
    out.println();
  }

  /**
   * One line per thread: stream, name, pool, events, CPU time over the recording (where the agent
   * measured it), state. When that does not fit {@code width}, or for a name longer than its
   * column, the name gets a line of its own above the rest.
   */
  private static void threadTable(
      Definitions d, TraceStats s, PrintWriter out, Style style, int width) {
    Map<Integer, TraceStats.StreamStats> byStream = byStream(s);
    EventText text = new EventText(d);
    List<String[]> rows = new ArrayList<>();
    int threadW = 6;
    int poolW = 4;
    int eventsW = 6;
    int cpuW = 3;
    int stateW = 5;
    for (ThreadDef th : d.threads()) {
      TraceStats.StreamStats ss = byStream.get(th.stream());
      String state =
          (ss == null ? "no events" : ss.state().name().toLowerCase(Locale.ROOT))
              + ((th.flags() & ThreadDef.DAEMON) != 0 ? " daemon" : "")
              + (th.isVirtual() ? " virtual" : "");
      ThreadJvmCounts c = d.jvmCounts(th.stream());
      String[] row = {
        Integer.toString(th.stream()),
        th.name(),
        th.pool() == 0 ? "-" : text.pool(th.pool()),
        Long.toString(ss == null ? 0 : ss.events()),
        c == null || !c.hasCpu() ? "-" : TimeText.duration(c.cpuNs()),
        state
      };
      rows.add(row);
      threadW = Math.max(threadW, row[1].length());
      poolW = Math.max(poolW, row[2].length());
      eventsW = Math.max(eventsW, row[3].length());
      cpuW = Math.max(cpuW, row[4].length());
      stateW = Math.max(stateW, row[5].length());
    }
    threadW = Math.min(threadW, 32);
    poolW = Math.min(poolW, 24);
    int numbersW = eventsW + cpuW + 7; // the spaces around them included
    boolean oneLine = 12 + threadW + poolW + numbersW + stateW <= width;
    if (!oneLine) {
      poolW = Math.max(4, Math.min(poolW, width - 10 - numbersW - stateW));
    }
    String rest = "%-" + poolW + "s  %" + eventsW + "s  %" + cpuW + "s  %s";
    String head = " %-6s  %-" + threadW + "s  ";
    String columns = String.format(Locale.ROOT, rest, "Pool", "Events", "CPU", "State");
    if (oneLine) {
      out.println(style.bold(String.format(Locale.ROOT, head, "Stream", "Thread") + columns));
    } else {
      out.println(style.bold(" Stream  Thread"));
      out.println(style.bold(" ".repeat(9) + columns));
    }
    for (String[] r : rows) {
      if (oneLine && r[1].length() <= threadW) {
        out.println(
            String.format(
                Locale.ROOT,
                " %6s  %-" + threadW + "s  " + rest,
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5]));
      } else {
        out.println(String.format(Locale.ROOT, " %6s  %s", r[0], r[1]));
        out.println(" ".repeat(9) + String.format(Locale.ROOT, rest, r[2], r[3], r[4], r[5]));
      }
    }
  }

  /** {@code name: value}, the value wrapped at spaces under its column. */
  private static void row(PrintWriter out, int width, String name, String value) {
    Terminal.wrap(out, String.format(Locale.ROOT, " %-14s ", name + ":"), value, width);
  }

  private static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    if (n < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", n / 1024.0);
    }
    return String.format(Locale.ROOT, "%.1f MiB", n / (1024.0 * 1024));
  }

  private static List<PoolDef> sortedPools(Definitions d) {
    List<PoolDef> pools = new ArrayList<>(d.pools());
    pools.sort(Comparator.comparingInt(PoolDef::id));
    return pools;
  }

  private static Map<Integer, TraceStats.StreamStats> byStream(TraceStats s) {
    Map<Integer, TraceStats.StreamStats> m = new HashMap<>();
    for (TraceStats.StreamStats ss : s.streams) {
      m.put(ss.stream(), ss);
    }
    return m;
  }
}
