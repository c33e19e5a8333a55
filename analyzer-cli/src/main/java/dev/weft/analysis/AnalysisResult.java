package dev.weft.analysis;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * What an analysis found: the trace's facts, every property's severity by thread and call path, the
 * regions table and the notes. Written and read as JSON ({@code weft-analysis/1}) by {@link
 * AnalysisJson}; see PROPERTIES.md for the contract.
 *
 * @param format always {@link #FORMAT}
 * @param trace what was analysed
 * @param timeNs total CPU allocation time: the sum of the threads' lifetimes inside the window
 * @param properties every registered property, in tree order, zero when absent
 * @param regions parallel regions and barriers, most time lost first
 * @param notes warnings and what could not be attributed, one line each
 */
public record AnalysisResult(
    String format,
    TraceInfo trace,
    long timeNs,
    List<PropertyResult> properties,
    List<RegionResult> regions,
    List<String> notes) {

  /** The format id of this version of the JSON contract. */
  public static final String FORMAT = "weft-analysis/1";

  public AnalysisResult {
    properties = List.copyOf(properties);
    regions = List.copyOf(regions);
    notes = List.copyOf(notes);
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
   * @param events events in the trace (including any after the window end)
   * @param dropped events the recorder had to drop
   * @param window the analysed time window (trace clock)
   * @param complete true when the trace was closed cleanly and every stream read to its end
   */
  public record TraceInfo(
      String path,
      long durationNs,
      int threads,
      long events,
      long dropped,
      Window window,
      boolean complete) {}

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
   */
  public record PropertyResult(
      String id,
      String parent,
      String name,
      long severityNs,
      double percent,
      List<ThreadSeverity> byThread,
      List<CallPathSeverity> byCallpath,
      @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Long> causes) {

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
