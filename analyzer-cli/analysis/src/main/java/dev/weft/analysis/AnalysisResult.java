package dev.weft.analysis;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What an analysis found: the trace's facts, every property's severity by thread and call path, the
 * regions table and the notes. Written and read as JSON ({@code weft-analysis/1}) by {@link
 * AnalysisJson}; see PROPERTIES.md for the contract.
 *
 * @param format always {@link #FORMAT}
 * @param status whether the analysis saw the whole recording: {@code complete}, {@code cut} or
 *     {@code partial} (see {@link Status}); never silent about the other two
 * @param statusDetail one line saying why the status is not complete (what was cut, where, and how
 *     that was counted), null when complete
 * @param trace what was analysed
 * @param timeNs total CPU allocation time: the sum of the threads' lifetimes inside the window
 * @param properties every registered property, in tree order, zero when absent
 * @param regions parallel regions and barriers, most time lost first
 * @param notes warnings and what could not be attributed, one line each
 * @param criticalPath the longest chain of execution through the run, or null (a document written
 *     before it existed)
 */
public record AnalysisResult(
    String format,
    Status status,
    @JsonInclude(JsonInclude.Include.NON_NULL) String statusDetail,
    TraceInfo trace,
    long timeNs,
    List<PropertyResult> properties,
    List<RegionResult> regions,
    List<String> notes,
    @JsonInclude(JsonInclude.Include.NON_NULL) CriticalPath criticalPath) {

  /** A result without a critical path. */
  public AnalysisResult(
      String format,
      Status status,
      String statusDetail,
      TraceInfo trace,
      long timeNs,
      List<PropertyResult> properties,
      List<RegionResult> regions,
      List<String> notes) {
    this(format, status, statusDetail, trace, timeNs, properties, regions, notes, null);
  }

  /** The format id of this version of the JSON contract. */
  public static final String FORMAT = "weft-analysis/1";

  /**
   * A result whose status is missing (a JSON document written before the status existed) takes it
   * from {@code trace.complete}.
   */
  public AnalysisResult {
    if (status == null) {
      status = trace == null || trace.complete() ? Status.COMPLETE : Status.CUT;
    }
    properties = List.copyOf(properties);
    regions = List.copyOf(regions);
    notes = List.copyOf(notes);
  }

  /** How much of the recording an analysis saw. Written in JSON as its lower-case {@link #id()}. */
  public enum Status {
    /** The trace was closed cleanly and every stream was read to its end. */
    COMPLETE,
    /**
     * The recording was cut off (process killed, trace not closed, or a stream file cut short):
     * analysed up to the cut, as {@code statusDetail} and the notes say.
     */
    CUT,
    /**
     * Only part of a damaged trace could be read (salvaged): the analysis covers what was read. Set
     * by the caller that salvaged the trace, through {@link Analyzer.Options#withPartial} or {@link
     * AnalysisResult#withStatus}.
     */
    PARTIAL;

    /** The JSON value: {@code complete}, {@code cut} or {@code partial}. */
    @JsonValue
    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The status of a JSON value (case-insensitive); an unknown one reads as {@link #PARTIAL}. */
    @JsonCreator
    public static Status of(String id) {
      for (Status s : values()) {
        if (s.id().equalsIgnoreCase(id)) {
          return s;
        }
      }
      return PARTIAL;
    }
  }

  /** This result with other notes. */
  public AnalysisResult withNotes(List<String> notes) {
    return new AnalysisResult(
        format, status, statusDetail, trace, timeNs, properties, regions, notes, criticalPath);
  }

  /**
   * This result with another status, e.g. {@code result.withStatus(Status.PARTIAL, "stream 3 was
   * salvaged up to byte 81920: 12 blocks skipped")} for an analysis of a salvaged trace. {@code
   * trace.complete} follows the status (true only for {@link Status#COMPLETE}). The detail replaces
   * the previous one; pass {@code detail + "; " + result.statusDetail()} to keep both.
   *
   * @param detail one line saying why (required unless {@code status} is {@link Status#COMPLETE},
   *     where it is ignored)
   * @throws IllegalArgumentException when {@code detail} is missing for a status other than
   *     complete
   */
  public AnalysisResult withStatus(Status status, String detail) {
    Objects.requireNonNull(status, "status");
    if (status != Status.COMPLETE && (detail == null || detail.isBlank())) {
      throw new IllegalArgumentException("a " + status.id() + " analysis needs a reason");
    }
    TraceInfo t =
        trace == null
            ? null
            : new TraceInfo(
                trace.path(),
                trace.durationNs(),
                trace.threads(),
                trace.events(),
                trace.dropped(),
                trace.window(),
                status == Status.COMPLETE,
                trace.cut(),
                trace.notSeenWhenAttached());
    return new AnalysisResult(
        format,
        status,
        status == Status.COMPLETE ? null : detail.strip(),
        t,
        timeNs,
        properties,
        regions,
        notes,
        criticalPath);
  }

  /** The property with this id, or null. */
  public PropertyResult property(String id) {
    for (PropertyResult p : properties) {
      if (p.id().equals(id)) {
        return p;
      }
    }
    return null;
  }

  /**
   * Facts about the analysed trace.
   *
   * @param path the trace directory
   * @param durationNs window end - window start
   * @param threads threads with a lifetime inside the window
   * @param events events in the trace (all of them are analysed)
   * @param dropped events the recorder had to drop
   * @param window the analysed time window (trace clock)
   * @param complete true when the trace was closed cleanly and every stream read to its end
   * @param cut how the recording was cut, null when it was not
   * @param notSeenWhenAttached what the recording could not see because the agent was attached to a
   *     running JVM (one item each), null when it started with the JVM
   */
  public record TraceInfo(
      String path,
      long durationNs,
      int threads,
      long events,
      long dropped,
      Window window,
      boolean complete,
      @JsonInclude(JsonInclude.Include.NON_NULL) Cut cut,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<String> notSeenWhenAttached) {}

  /**
   * Where and how a recording was cut.
   *
   * @param atNs the cut (trace clock): the last event of any thread, or the END record of a trace
   *     closed cleanly whose stream files were cut short
   * @param threadsWithoutEnd threads alive at the cut without a clean end (no THREAD_END); each
   *     counts up to the cut when it was blocked or idle there, else up to its own last event
   * @param openWaits waits still open at the cut, counted up to it
   * @param damagedStreams stream files cut short or corrupt (their later events are lost)
   */
  public record Cut(long atNs, int threadsWithoutEnd, long openWaits, int damagedStreams) {}

  /** The analysed window, in the trace's nanoTime clock. */
  public record Window(long startNs, long endNs) {}

  /**
   * One property.
   *
   * @param id stable id
   * @param parent parent id, null for a root
   * @param name display name
   * @param severityNs inclusive severity (own plus all descendants')
   * @param percent severityNs as a percentage of {@code time_ns}
   * @param byThread exclusive severity per thread (descending, zeros left out)
   * @param byCallpath exclusive severity per call path (descending, zeros left out)
   * @param causes breakdown into causes (inclusive like severityNs), or null
   * @param unit {@code task_ns} for a property in task time (summed over tasks, not a share of CPU
   *     allocation time: its {@code percent} is 0), null for thread time
   * @param latency per-task latency figures of a task-time property, or null
   * @param timeline the property's series over time (e.g. each carrier's busy share), or null
   */
  /**
   * A property's series over time: the analysed window cut into equal buckets, one row per thread.
   *
   * @param startNs the first bucket's start (trace clock, as {@code window})
   * @param bucketNs each bucket's length
   * @param rows one per thread the series is about
   * @param summary the whole window: the mean of the rows' shares, and what it is of
   */
  public record Timeline(long startNs, long bucketNs, List<TimelineRow> rows, String summary) {
    public Timeline {
      rows = List.copyOf(rows);
    }
  }

  /**
   * One thread's row of a {@link Timeline}.
   *
   * @param thread the thread's name
   * @param share per bucket, the fraction of it (0 to 1) the property measures, e.g. busy
   * @param total that fraction over the whole window
   */
  public record TimelineRow(String thread, List<Double> share, double total) {
    public TimelineRow {
      share = List.copyOf(share);
    }
  }

  public record PropertyResult(
      String id,
      String parent,
      String name,
      long severityNs,
      double percent,
      List<ThreadSeverity> byThread,
      List<CallPathSeverity> byCallpath,
      @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Long> causes,
      @JsonInclude(JsonInclude.Include.NON_NULL) String unit,
      @JsonInclude(JsonInclude.Include.NON_NULL) Latency latency,
      @JsonInclude(JsonInclude.Include.NON_NULL) Timeline timeline) {

    /** A property without a timeline. */
    public PropertyResult(
        String id,
        String parent,
        String name,
        long severityNs,
        double percent,
        List<ThreadSeverity> byThread,
        List<CallPathSeverity> byCallpath,
        Map<String, Long> causes,
        String unit,
        Latency latency) {
      this(
          id, parent, name, severityNs, percent, byThread, byCallpath, causes, unit, latency, null);
    }

    /** A property in thread time. */
    public PropertyResult(
        String id,
        String parent,
        String name,
        long severityNs,
        double percent,
        List<ThreadSeverity> byThread,
        List<CallPathSeverity> byCallpath,
        Map<String, Long> causes) {
      this(id, parent, name, severityNs, percent, byThread, byCallpath, causes, null, null);
    }

    /** Whether the severity is thread time (a share of CPU allocation time). */
    public boolean threadTime() {
      return unit == null || unit.equals("ns");
    }

    public PropertyResult {
      byThread = List.copyOf(byThread);
      byCallpath = List.copyOf(byCallpath);
      causes =
          causes == null
              ? null
              : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(causes));
    }

    /** The exclusive severity of a thread (by name), 0 when absent. */
    public long thread(String name) {
      for (ThreadSeverity t : byThread) {
        if (t.thread().equals(name)) {
          return t.severityNs();
        }
      }
      return 0;
    }

    /** The sum of the exclusive values (by thread). */
    public long exclusiveNs() {
      long n = 0;
      for (ThreadSeverity t : byThread) {
        n += t.severityNs();
      }
      return n;
    }
  }

  /**
   * Latency figures of a group of tasks.
   *
   * @param tasks how many tasks
   * @param meanNs mean latency
   * @param p95Ns 95th percentile (within 6.25 %, at most the maximum)
   * @param maxNs largest latency
   */
  public record LatencyFigures(long tasks, long meanNs, long p95Ns, long maxNs) {}

  /**
   * Per-task latencies of a task-time property.
   *
   * @param all every task
   * @param byPool per pool name, most total latency first
   * @param byCallpath per pool and creation call path, most total latency first
   */
  public record Latency(
      LatencyFigures all, List<PoolLatency> byPool, List<PathLatency> byCallpath) {
    public Latency {
      byPool = byPool == null ? List.of() : List.copyOf(byPool);
      byCallpath = byCallpath == null ? List.of() : List.copyOf(byCallpath);
    }
  }

  /** Latency of one pool's tasks. */
  public record PoolLatency(
      String pool, long tasks, long meanNs, long p95Ns, long maxNs, long totalNs) {}

  /** Latency of tasks created at one call path for one pool. */
  public record PathLatency(
      List<String> path,
      String pool,
      long tasks,
      long meanNs,
      long p95Ns,
      long maxNs,
      long totalNs) {
    public PathLatency {
      path = path == null ? List.of() : List.copyOf(path);
    }
  }

  /**
   * The critical path: the longest chain of execution through the run's happens-before edges.
   *
   * @param lengthNs its length: the on-path time of all its segments (at most the run's length)
   * @param byThread on-path ns per thread, largest first
   * @param byCallpath on-path ns per call path, largest first, each with its what-if figure
   * @param segments the path in time order, contiguous: each segment starts where the previous one
   *     ends; at most {@link #MAX_SEGMENTS} (see PROPERTIES.md for how longer paths are merged)
   * @param segmentsTruncated how many of the oldest segments were left out to keep to that bound (0
   *     when none): then the segments start {@code truncatedNs} after the path's start
   * @param truncatedNs the time of the segments left out
   */
  public record CriticalPath(
      long lengthNs,
      List<CriticalThread> byThread,
      List<CriticalCallPath> byCallpath,
      List<CriticalSegment> segments,
      long segmentsTruncated,
      long truncatedNs) {
    /** Most segments written. */
    public static final int MAX_SEGMENTS = 1024;

    public CriticalPath {
      byThread = byThread == null ? List.of() : List.copyOf(byThread);
      byCallpath = byCallpath == null ? List.of() : List.copyOf(byCallpath);
      segments = segments == null ? List.of() : List.copyOf(segments);
    }

    /** A path without timed segments. */
    public CriticalPath(
        long lengthNs, List<CriticalThread> byThread, List<CriticalCallPath> byCallpath) {
      this(lengthNs, byThread, byCallpath, List.of(), 0, 0);
    }

    /** The on-path ns of a thread (by name), 0 when absent. */
    public long thread(String name) {
      for (CriticalThread t : byThread) {
        if (t.thread().equals(name)) {
          return t.ns();
        }
      }
      return 0;
    }
  }

  /**
   * One stretch of the critical path on one thread.
   *
   * @param thread the thread on the path
   * @param startNs start, in the trace's clock (as {@link Window})
   * @param endNs end, in the trace's clock
   * @param path the call path it ran at (region labels from the outermost; empty outside any
   *     recorded region); merged segments have their common enclosing call path
   * @param kind {@code work} (the thread executed), {@code hand_over} (from another thread's
   *     release to this thread's wake-up) or {@code wait} (a wait whose releaser is unrecorded,
   *     e.g. a timeout, or whose releaser's chain was lighter and no cause, or idle time)
   */
  public record CriticalSegment(
      String thread, long startNs, long endNs, List<String> path, String kind) {
    public CriticalSegment {
      path = path == null ? List.of() : List.copyOf(path);
    }
  }

  /** A thread's time on the critical path. */
  public record CriticalThread(String thread, long ns) {}

  /**
   * A call path's time on the critical path.
   *
   * @param path region labels from the outermost
   * @param ns on-path ns at this call path (exclusive)
   * @param whatIfNs how much shorter the path would be had this call path's work been balanced over
   *     the threads that ran it: on-path ns of work (not its waits and hand-overs) minus their mean
   *     execution time there, at least 0
   */
  public record CriticalCallPath(List<String> path, long ns, long whatIfNs) {
    public CriticalCallPath {
      path = path == null ? List.of() : List.copyOf(path);
    }
  }

  /** Severity of one thread, named by its last name. */
  public record ThreadSeverity(String thread, long severityNs) {}

  /**
   * Severity at one call path: region labels from the outermost ({@code "name @ File.java:12"}).
   */
  public record CallPathSeverity(List<String> path, long severityNs) {
    public CallPathSeverity {
      path = List.copyOf(path);
    }
  }

  /**
   * A parallel region (one FORK call site) or a barrier.
   *
   * @param name the region's name (FORK region, or the barrier's first await call site)
   * @param location {@code File.java:12}
   * @param instances FORK count, or barrier generations
   * @param busyNsByThread busy ns of each team member
   * @param imbalance (max - mean) / mean of the busy times
   * @param lostNs sum over members of (max - busy)
   */
  public record RegionResult(
      String name,
      String location,
      long instances,
      Map<String, Long> busyNsByThread,
      double imbalance,
      long lostNs) {
    public RegionResult {
      busyNsByThread =
          java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(busyNsByThread));
    }
  }
}
