package dev.weft.check;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An analysis result in the {@code weft-analysis/1} JSON format that {@code weft analyze --format
 * json} writes, read back for {@code diff} and {@code check}. Unknown keys are ignored, so newer
 * analyzers may add facts.
 *
 * <pre>{@code
 * {"format": "weft-analysis/1",
 *  "trace": {"path": …, "duration_ns": n, "threads": n, "events": n, "dropped": n},
 *  "time_ns": n,
 *  "properties": [{"id", "parent", "name", "severity_ns", "percent",
 *                  "by_thread": [{"thread", "severity_ns"}], "by_callpath": [{"path": […], "severity_ns"}]}],
 *  "regions": [{"name", "location", "instances", "busy_ns_by_thread": {…}, "imbalance", "lost_ns"}]}
 * }</pre>
 */
public final class AnalysisFile {
  /** The format this reader understands (any {@code weft-analysis/1.x}). */
  public static final String FORMAT = "weft-analysis/1";

  /** Facts about the analysed trace. */
  public record TraceInfo(String path, long durationNs, long threads, long events, long dropped) {}

  /** A property's severity on one thread. */
  public record ThreadShare(String thread, long severityNs) {}

  /** A property's severity on one call path (outermost first). */
  public record CallpathShare(List<String> path, long severityNs) {}

  /**
   * One property of the metric tree.
   *
   * @param parent the parent's id, or null for a root
   * @param percent share of total CPU allocation time, in percent
   */
  public record Property(
      String id,
      String parent,
      String name,
      long severityNs,
      double percent,
      List<ThreadShare> byThread,
      List<CallpathShare> byCallpath) {}

  /** A parallel or user region's balance. */
  public record Region(
      String name,
      String location,
      long instances,
      Map<String, Long> busyNsByThread,
      double imbalance,
      long lostNs) {

    /** Identifies a region across two analyses: name and location. */
    public String key() {
      return location.isEmpty() ? name : name + " @ " + location;
    }
  }

  private final String source;
  private final JsonNode json;
  private final String format;
  private final TraceInfo trace;
  private final long timeNs;
  private final List<Property> properties;
  private final List<Region> regions;
  private final Map<String, Property> byId = new LinkedHashMap<>();

  private AnalysisFile(
      String source,
      JsonNode json,
      String format,
      TraceInfo trace,
      long timeNs,
      List<Property> properties,
      List<Region> regions) {
    this.source = source;
    this.json = json;
    this.format = format;
    this.trace = trace;
    this.timeNs = timeNs;
    this.properties = Collections.unmodifiableList(properties);
    this.regions = Collections.unmodifiableList(regions);
    for (Property p : properties) {
      byId.putIfAbsent(p.id(), p);
    }
  }

  /**
   * Reads an analysis JSON file.
   *
   * @throws CheckInputException with one line naming the file when it is not a readable analysis
   */
  public static AnalysisFile read(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new CheckInputException(CheckInputException.describe(e), e);
    }
    return parse(file.toString(), text);
  }

  /**
   * Parses analysis JSON.
   *
   * @param source names the input in messages (a file or trace path)
   * @throws CheckInputException with one line naming {@code source} when it is not an analysis
   */
  public static AnalysisFile parse(String source, String json) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(json);
    } catch (JsonProcessingException e) {
      String where =
          e.getLocation() == null
              ? ""
              : " at line "
                  + e.getLocation().getLineNr()
                  + ", column "
                  + e.getLocation().getColumnNr();
      throw new CheckInputException(
          source + ": not a Weft analysis (invalid JSON" + where + ")", e);
    }
    if (root == null || !root.isObject()) {
      throw new CheckInputException(source + ": not a Weft analysis (not a JSON object)");
    }
    String format = root.path("format").asText("");
    if (format.isEmpty()) {
      throw new CheckInputException(
          source + ": not a Weft analysis (no \"format\": \"" + FORMAT + "\")");
    }
    if (!format.equals(FORMAT) && !format.startsWith(FORMAT + ".")) {
      throw new CheckInputException(
          source
              + ": analysis format "
              + format
              + " is not supported (this weft reads "
              + FORMAT
              + ")");
    }
    JsonNode t = root.path("trace");
    TraceInfo trace =
        new TraceInfo(
            t.path("path").asText(""),
            t.path("duration_ns").asLong(0),
            t.path("threads").asLong(0),
            t.path("events").asLong(0),
            t.path("dropped").asLong(0));
    JsonNode props = root.get("properties");
    if (props == null || !props.isArray()) {
      throw new CheckInputException(source + ": not a Weft analysis (no \"properties\" array)");
    }
    List<Property> properties = new ArrayList<>();
    int index = 0;
    for (JsonNode p : props) {
      properties.add(property(source, index++, p));
    }
    List<Region> regions = new ArrayList<>();
    for (JsonNode r : root.path("regions")) {
      Map<String, Long> busy = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = r.path("busy_ns_by_thread").fields();
          it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        busy.put(e.getKey(), e.getValue().asLong());
      }
      regions.add(
          new Region(
              r.path("name").asText(""),
              r.path("location").asText(""),
              r.path("instances").asLong(0),
              busy,
              r.path("imbalance").asDouble(0),
              r.path("lost_ns").asLong(0)));
    }
    return new AnalysisFile(
        source, root, format, trace, root.path("time_ns").asLong(0), properties, regions);
  }

  /**
   * An analysis made up by a caller (e.g. {@link AnalysisWindow}), complete, with no regions.
   *
   * @param timeNs total CPU allocation time, the 100 % of the properties' percentages
   */
  public static AnalysisFile of(
      String source, TraceInfo trace, long timeNs, List<Property> properties) {
    JsonNode json = new ObjectMapper().createObjectNode().put("format", FORMAT);
    return new AnalysisFile(
        source, json, FORMAT, trace, timeNs, new ArrayList<>(properties), new ArrayList<>());
  }

  private static Property property(String source, int index, JsonNode p) {
    String id = p.path("id").asText("");
    if (id.isEmpty() || !p.path("percent").isNumber() || !p.path("severity_ns").isNumber()) {
      throw new CheckInputException(
          source
              + ": not a Weft analysis (property "
              + (id.isEmpty() ? "#" + index : id)
              + " needs \"id\", \"severity_ns\" and \"percent\")");
    }
    JsonNode parent = p.get("parent");
    List<ThreadShare> byThread = new ArrayList<>();
    for (JsonNode s : p.path("by_thread")) {
      byThread.add(new ThreadShare(s.path("thread").asText(""), s.path("severity_ns").asLong(0)));
    }
    List<CallpathShare> byCallpath = new ArrayList<>();
    for (JsonNode s : p.path("by_callpath")) {
      List<String> path = new ArrayList<>();
      s.path("path").forEach(frame -> path.add(frame.asText()));
      byCallpath.add(new CallpathShare(List.copyOf(path), s.path("severity_ns").asLong(0)));
    }
    return new Property(
        id,
        parent == null || parent.isNull() || parent.asText().isEmpty() ? null : parent.asText(),
        p.path("name").asText(id),
        p.path("severity_ns").asLong(),
        p.path("percent").asDouble(),
        List.copyOf(byThread),
        List.copyOf(byCallpath));
  }

  /** The file or trace this analysis came from, for messages. */
  public String source() {
    return source;
  }

  /**
   * Whether the analysis saw the whole recording: {@code complete}, {@code cut} or {@code partial}
   * (a document written before the status existed counts as complete).
   */
  public String status() {
    return json.path("status").asText("complete");
  }

  /** Why the status is not complete, or "". */
  public String statusDetail() {
    return json.path("status_detail").asText("");
  }

  /** The whole document as read (which holds more than this class reads). */
  public JsonNode json() {
    return json;
  }

  public String format() {
    return format;
  }

  public TraceInfo trace() {
    return trace;
  }

  /** Total CPU allocation time: the 100 % that percentages refer to. */
  public long timeNs() {
    return timeNs;
  }

  /** Properties in file order (parents before children in files the analyzer writes). */
  public List<Property> properties() {
    return properties;
  }

  /** The property with this id, or null. */
  public Property property(String id) {
    return byId.get(id);
  }

  public List<Region> regions() {
    return regions;
  }
}
