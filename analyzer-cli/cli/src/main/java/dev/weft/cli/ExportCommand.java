package dev.weft.cli;

import dev.weft.export.ChromeFilter;
import dev.weft.export.otf2.Otf2Exporter;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code weft export TRACE [--format chrome] [-o FILE.json]}: the trace as Chrome Trace Event JSON,
 * to open in Perfetto UI (ui.perfetto.dev) or chrome://tracing; {@code --format otf2 -o DIR}: an
 * OTF2 archive for Vampir. analyzer-cli/EXPORT.md describes both.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
      "Export a trace for a timeline viewer: Perfetto UI, chrome://tracing, Vampir.",
      "chrome: Chrome Trace Event JSON, which https://ui.perfetto.dev and chrome://tracing open:"
          + " the JVM as the process, one track per thread; slices for regions, tasks, lock waits"
          + " and holds, barrier, join and other waits; arrows from task creation to task start.",
      "otf2: an OTF2 archive in DIR (-o DIR), which Vampir and otf2-print read.",
      "parquet: the waits as table wait_intervals of the store in DIR (-o DIR, see STORE.md),"
          + " with the run's row and cells; --events adds the raw events (table events)."
    })
final class ExportCommand implements Callable<Integer> {

  /** Export formats. */
  enum Format {
    CHROME,
    OTF2,
    PARQUET;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  @Mixin TraceArgument trace;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description =
          "Export format: chrome (a JSON file), otf2 (an archive directory, -o DIR) or parquet"
              + " (a store, -o DIR) (default: ${DEFAULT-VALUE}).")
  Format format = Format.CHROME;

  @Mixin OutputFile output;

  @Option(
      names = "--lock-holds",
      negatable = true,
      defaultValue = "true",
      fallbackValue = "true",
      description = "chrome: show lock holds (acquired to released) as slices (default: on).")
  boolean lockHolds = true;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      description =
          "chrome, parquet: start of the time window, after the run's first event: 250 (ms), 1.5s,"
              + " 300us.")
  String from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      description =
          "chrome, parquet: end of the time window, after the run's first event (as --from).")
  String to;

  @Option(
      names = "--threads",
      paramLabel = "LIST",
      description =
          "chrome, parquet: only these threads: stream ids or names, * matching anything"
              + " (main,ForkJoinPool-1-worker-*).")
  String threads;

  @Option(
      names = "--kinds",
      paramLabel = "LIST",
      completionCandidates = CompletionValues.ExportKinds.class,
      description =
          "chrome: only these kinds: region,parallel,task,lock,hold,barrier,join,wait,spin,help,"
              + "instant,flow (task arrows),handoff (lock handoff arrows), or all (default: all"
              + " but handoff).")
  String kinds;

  @Option(
      names = "--events",
      description = "parquet: also write the raw events, sorted for time-range queries.")
  boolean events;

  /** Page compression of --format parquet. */
  enum Compression {
    GZIP,
    NONE;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  @Option(
      names = "--compression",
      paramLabel = "CODEC",
      description = "parquet: gzip or none (default: gzip; sizes and rates in STORE.md).")
  Compression compression;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    if ((events || compression != null) && format != Format.PARQUET) {
      throw new BadInputException("--events and --compression apply to --format parquet only");
    }
    if (format == Format.OTF2) {
      return exportOtf2();
    }
    if (format == Format.PARQUET) {
      if (output.isStdout()) {
        throw new BadInputException("--format parquet writes a store: give its directory with -o");
      }
      if (kinds != null || !lockHolds || trace.salvage) {
        throw new BadInputException(
            "--kinds, --no-lock-holds and --salvage do not apply to --format parquet");
      }
      return ParquetExport.run(
          trace.dir(),
          output.file(),
          chromeFilter(),
          events,
          compression == Compression.NONE,
          spec.commandLine().getErr());
    }

    try (Trace t = trace.open()) {
      ChromeTraceExporter exporter = new ChromeTraceExporter(t, chromeFilter());
      boolean done = false;
      try (Writer w = output.open()) {
        exporter.write(w);
        t.requireIntact(); // no file from a damaged trace
        done = true;
      } finally {
        if (!done) {
          output.discard();
        }
      }
      TraceProblems.report(t, spec.commandLine().getErr());
      if (!output.isStdout()) {
        spec.commandLine()
            .getErr()
            .println(
                "weft: wrote "
                    + output.file()
                    + " ("
                    + exporter.slices()
                    + " slices, "
                    + exporter.flows()
                    + " flows, "
                    + String.format(
                        java.util.Locale.ROOT,
                        "%.1f",
                        exporter.events() == 0
                            ? 0.0
                            : (double) exporter.chars() / exporter.events())
                    + " bytes per event); open it in https://ui.perfetto.dev");
      }
    }
    return ExitCodes.OK;
  }

  /** The chrome options as a filter; a one-line error for bad values. */
  private ChromeFilter chromeFilter() {
    long fromNanos = from == null ? 0 : time("--from", from);
    long toNanos = to == null ? Long.MAX_VALUE : time("--to", to);
    if (toNanos < fromNanos) {
      throw new BadInputException("--to " + to + " is before --from " + from);
    }
    Set<ChromeFilter.Kind> shown = ChromeFilter.defaultKinds();
    if (kinds != null) {
      try {
        shown = ChromeFilter.parseKinds(kinds);
      } catch (IllegalArgumentException e) {
        throw new BadInputException("--kinds: " + e.getMessage());
      }
    }
    if (!lockHolds) {
      shown.remove(ChromeFilter.Kind.HOLD);
    }
    List<String> names = threads == null ? List.of() : ChromeFilter.parseThreads(threads);
    return new ChromeFilter(fromNanos, toNanos, names, shown);
  }

  /** A time after the run's start: a bare number is milliseconds. */
  private static long time(String option, String value) {
    try {
      String v = value.strip();
      long nanos =
          v.matches("[0-9]+(\\.[0-9]+)?")
              ? Math.round(Double.parseDouble(v) * 1e6)
              : Durations.parse(v);
      if (nanos < 0) {
        throw new IllegalArgumentException("negative");
      }
      return nanos;
    } catch (IllegalArgumentException e) {
      throw new BadInputException(
          option + " " + value + ": not a time (milliseconds, or with a unit: 1.5s, 300us)");
    }
  }

  private Integer exportOtf2() throws IOException {
    if (output.isStdout()) {
      throw new BadInputException("--format otf2 writes a directory: give it with -o DIR");
    }
    if (from != null || to != null || threads != null || kinds != null || !lockHolds) {
      throw new BadInputException(
          "--from, --to, --threads, --kinds and --no-lock-holds apply to --format chrome only");
    }
    Path dir = output.file();
    if (Files.exists(dir) && (!Files.isDirectory(dir) || !isEmpty(dir))) {
      throw new BadInputException(dir + " exists and is not an empty directory");
    }
    try (Trace t = trace.open()) {
      Otf2Exporter exporter = new Otf2Exporter(t);
      boolean done = false;
      try {
        exporter.write(dir);
        t.requireIntact(); // no archive from a damaged trace
        done = true;
      } finally {
        if (!done) {
          deleteTree(dir);
        }
      }
      TraceProblems.report(t, spec.commandLine().getErr());
      long events = exporter.locationEvents().values().stream().mapToLong(Long::longValue).sum();
      spec.commandLine()
          .getErr()
          .println(
              "weft: wrote "
                  + dir.resolve("traces.otf2")
                  + " ("
                  + exporter.locationEvents().size()
                  + " locations, "
                  + events
                  + " events); open it in Vampir or read it with otf2-print");
    }
    return ExitCodes.OK;
  }

  private static boolean isEmpty(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.findAny().isEmpty();
    }
  }

  /** Removes a partly written archive. */
  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // The failure that got us here is the one to report.
    }
  }
}
