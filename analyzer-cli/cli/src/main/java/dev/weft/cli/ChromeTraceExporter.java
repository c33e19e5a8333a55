package dev.weft.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.LockFlags;
import dev.weft.trace.PoolDef;
import dev.weft.trace.ProcessDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a trace as Chrome Trace Event JSON (the format Perfetto UI and chrome://tracing open), in
 * one streaming pass: memory holds the open slices of each thread, the tasks created but not yet
 * begun and the last release of each lock, never the events.
 *
 * <p>Each thread is a track ({@code tid} = stream id). Pool workers are grouped into one process
 * per pool ({@code pid} = 1 + pool id); threads outside pools share process 1. Slices are B/E pairs
 * for user regions, parallel regions (fork..join), tasks, lock waits (request..acquired), lock
 * holds (acquired..released, optional), barrier waits, join waits, waits, spins and FJP helping.
 *
 * <p><b>Nesting.</b> Slices on a track always nest: when a slice ends while slices opened after it
 * are still open (hand-over-hand locking), those are ended too and re-opened right after with
 * {@code "continued": true}; an end without its begin (a trace that starts late) is ignored; slices
 * still open when a thread's events end are closed at its last event.
 *
 * <p><b>Flows.</b> Arrows ({@code "s"}/{@code "f"}, same id) go from a task's creation to its
 * begin, and from a lock's release to its next acquisition by another thread. A flow is written
 * once both ends are known, so every start has its finish; its start is bound to a zero-length
 * marker slice on the source thread, which viewers place by its timestamp.
 */
final class ChromeTraceExporter {
  private static final String CAT = "weft";

  /** Matches any key in {@link #find}. */
  private static final long ANY_KEY = Long.MIN_VALUE;

  /**
   * Waits whose exit ends the innermost open wait of the same kind even when the exit names another
   * call site than the entry (the exact match is preferred).
   */
  private static final Set<SliceType> BY_TYPE_ALONE =
      EnumSet.of(SliceType.JOIN_WAIT, SliceType.WAIT, SliceType.SPIN, SliceType.HELP);

  /** What kind of slice is open, i.e. which event closes it. */
  private enum SliceType {
    REGION,
    PARALLEL,
    TASK,
    LOCK_WAIT,
    LOCK_HOLD,
    BARRIER_WAIT,
    JOIN_WAIT,
    WAIT,
    SPIN,
    HELP
  }

  /** An open slice. */
  private static final class Slice {
    final SliceType type;
    final long key;
    final String name;
    final Map<String, Object> args;

    Slice(SliceType type, long key, String name, Map<String, Object> args) {
      this.type = type;
      this.key = key;
      this.name = name;
      this.args = args;
    }
  }

  /** One thread's track. */
  private static final class Track {
    final int pid;
    final int tid;
    final List<Slice> stack = new ArrayList<>();
    long lastTime = Long.MIN_VALUE;

    Track(int pid, int tid) {
      this.pid = pid;
      this.tid = tid;
    }
  }

  /** Where something happened: a thread and a time. */
  private record Site(int stream, long time, int region) {}

  private final Trace trace;
  private final boolean lockHolds;
  private final Definitions defs;
  private final EventText text;
  private final Map<Integer, Track> tracks = new HashMap<>();
  private final Map<Long, Site> createdTasks = new HashMap<>();
  private final Map<Long, Site> lastRelease = new HashMap<>();
  private JsonGenerator g;
  private long start;
  private long nextFlow = 1;
  private long slices;
  private long flows;

  ChromeTraceExporter(Trace trace, boolean lockHolds) {
    this.trace = trace;
    this.lockHolds = lockHolds;
    this.defs = trace.definitions();
    this.text = new EventText(defs);
  }

  /** Slices written by the last {@link #write}. */
  long slices() {
    return slices;
  }

  /** Flows (arrows) written by the last {@link #write}. */
  long flows() {
    return flows;
  }

  /** Writes the whole trace to {@code out} (not closed). */
  void write(Writer out) throws IOException {
    g = new JsonFactory().createGenerator(out);
    g.writeStartObject();
    g.writeStringField("displayTimeUnit", "ns");
    writeOtherData();
    g.writeArrayFieldStart("traceEvents");
    writeMetadata();
    EventCursor c = trace.events();
    boolean first = true;
    while (c.next()) {
      if (first) {
        start = c.time();
        first = false;
      }
      event(c);
    }
    for (Track t : tracks.values()) {
      closeAll(t, t.lastTime);
    }
    g.writeEndArray();
    g.writeEndObject();
    g.writeRaw('\n');
    g.flush();
  }

  private void writeOtherData() throws IOException {
    g.writeObjectFieldStart("otherData");
    g.writeStringField("generator", "weft " + WeftVersion.version());
    g.writeStringField("trace", trace.directory().toString());
    ProcessDef p = defs.process();
    if (p != null) {
      g.writeStringField("jdk", p.jdkVersion());
      g.writeStringField("command_line", p.commandLine());
    }
    g.writeEndObject();
  }

  private void writeMetadata() throws IOException {
    ProcessDef p = defs.process();
    String app = p == null || p.mainClass().isEmpty() ? "JVM" : p.mainClass();
    metadata("process_name", 1, 0, "name", p == null ? app : app + " (pid " + p.pid() + ")");
    metadata("process_sort_index", 1, 0, "sort_index", 0);
    for (PoolDef pool : defs.pools()) {
      metadata("process_name", pid(pool.id()), 0, "name", pool.name());
      metadata("process_sort_index", pid(pool.id()), 0, "sort_index", pool.id());
    }
    for (ThreadDef t : defs.threads()) {
      Track track = new Track(pid(t.pool()), t.stream());
      tracks.put(t.stream(), track);
      metadata("thread_name", track.pid, track.tid, "name", t.name());
      metadata("thread_sort_index", track.pid, track.tid, "sort_index", t.stream());
    }
  }

  private static int pid(int pool) {
    return 1 + pool;
  }

  private void metadata(String name, int pid, int tid, String key, Object value)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("name", name);
    g.writeStringField("ph", "M");
    g.writeNumberField("ts", 0);
    g.writeNumberField("pid", pid);
    g.writeNumberField("tid", tid);
    g.writeObjectFieldStart("args");
    g.writeObjectField(key, value);
    g.writeEndObject();
    g.writeEndObject();
  }

  // ---- events
  // -------------------------------------------------------------------------------------

  private void event(EventCursor c) throws IOException {
    Track t = tracks.computeIfAbsent(c.stream(), s -> new Track(pid(0), s));
    long time = c.time();
    t.lastTime = time;
    EventKind kind = c.kind();
    switch (kind) {
      case ENTER:
        open(t, time, SliceType.REGION, c.region(), text.regionName(c.region()), at(c.region()));
        break;
      case EXIT:
        close(t, time, SliceType.REGION, c.region(), null);
        break;
      case FORK:
        {
          Map<String, Object> args = at(c.region());
          args.put("pool", text.pool((int) c.get(Field.POOL)));
          args.put("parallelism", c.get(Field.PARALLELISM));
          open(
              t,
              time,
              SliceType.PARALLEL,
              c.region(),
              "parallel " + text.regionName(c.region()),
              args);
          break;
        }
      case JOIN:
        close(t, time, SliceType.PARALLEL, c.region(), null);
        break;
      case TASK_CREATE:
        createdTasks.put(c.get(Field.TASK), new Site(c.stream(), time, c.region()));
        break;
      case TASK_BEGIN:
        taskBegin(t, time, c.get(Field.TASK));
        break;
      case TASK_END:
        close(t, time, SliceType.TASK, c.get(Field.TASK), null);
        break;
      case JOIN_WAIT_ENTER:
        {
          Map<String, Object> args = at(c.region());
          long target = c.get(Field.TARGET);
          if (target != 0) {
            args.put("target", EventText.hex(target));
          }
          open(t, time, SliceType.JOIN_WAIT, c.region(), "join wait", args);
          break;
        }
      case JOIN_WAIT_EXIT:
        close(t, time, SliceType.JOIN_WAIT, c.region(), null);
        break;
      case BARRIER_ENTER:
        {
          long barrier = c.get(Field.OBJECT);
          Map<String, Object> args = at(c.region());
          args.put("barrier", text.object(barrier));
          args.put("generation", c.get(Field.GENERATION));
          open(t, time, SliceType.BARRIER_WAIT, barrier, "barrier wait", args);
          break;
        }
      case BARRIER_EXIT:
        close(
            t,
            time,
            SliceType.BARRIER_WAIT,
            c.get(Field.OBJECT),
            Map.of("outcome", EventText.barrierOutcome(c.get(Field.OUTCOME))));
        break;
      case LOCK_REQUEST:
        {
          long lock = c.get(Field.OBJECT);
          Map<String, Object> args = at(c.region());
          args.put("lock", text.object(lock));
          open(t, time, SliceType.LOCK_WAIT, lock, "lock wait", args);
          break;
        }
      case LOCK_ACQUIRED:
        lockAcquired(t, time, c.get(Field.OBJECT), c.get(Field.FLAGS));
        break;
      case LOCK_RELEASED:
        {
          long lock = c.get(Field.OBJECT);
          lastRelease.put(lock, new Site(c.stream(), time, 0));
          if (lockHolds) {
            close(t, time, SliceType.LOCK_HOLD, lock, null);
          }
          break;
        }
      case WAIT_ENTER:
        {
          String kindName = WaitKind.name(c.get(Field.WAIT_KIND));
          open(t, time, SliceType.WAIT, c.region(), "wait " + kindName, at(c.region()));
          break;
        }
      case WAIT_EXIT:
        close(t, time, SliceType.WAIT, c.region(), null);
        break;
      case SPIN_ENTER:
        open(t, time, SliceType.SPIN, c.region(), "spin", at(c.region()));
        break;
      case SPIN_EXIT:
        close(t, time, SliceType.SPIN, c.region(), null);
        break;
      case HELP_ENTER:
        open(t, time, SliceType.HELP, c.region(), "help", at(c.region()));
        break;
      case HELP_EXIT:
        close(t, time, SliceType.HELP, c.region(), null);
        break;
      case THREAD_BEGIN:
      case THREAD_END:
        break; // the track itself shows the thread's life
      default:
        instant(t, time, c);
    }
  }

  private void taskBegin(Track t, long time, long task) throws IOException {
    Site created = createdTasks.remove(task);
    Map<String, Object> args = new LinkedHashMap<>();
    args.put("task", EventText.hex(task));
    String name = "task";
    if (created != null) {
      String where = text.regionLocation(created.region());
      if (!where.isEmpty()) {
        args.put("created_at", where);
        name = "task " + where;
      }
      args.put("queued_ns", time - created.time());
    }
    open(t, time, SliceType.TASK, task, name, args);
    if (created != null && tracks.containsKey(created.stream())) {
      flow(tracks.get(created.stream()), created.time(), t, time, "task", "task_create");
    }
  }

  private void lockAcquired(Track t, long time, long lock, long flags) throws IOException {
    boolean acquired = (flags & (LockFlags.FAILED | LockFlags.ABORTED)) == 0;
    Site released = acquired ? lastRelease.get(lock) : null;
    if (released != null && (flags & LockFlags.REENTRANT) == 0) {
      lastRelease.remove(lock);
      if (released.stream() != t.tid && tracks.containsKey(released.stream())) {
        // Bound to the lock wait, which is still open and ends now.
        flow(
            tracks.get(released.stream()),
            released.time(),
            t,
            time,
            "lock handoff",
            "lock_released");
      }
    }
    Map<String, Object> end = new LinkedHashMap<>();
    end.put("flags", EventText.lockFlags(flags));
    close(t, time, SliceType.LOCK_WAIT, lock, end);
    if (acquired && lockHolds) {
      Map<String, Object> args = new LinkedHashMap<>();
      args.put("lock", text.object(lock));
      if (flags != 0) {
        args.put("flags", EventText.lockFlags(flags));
      }
      open(t, time, SliceType.LOCK_HOLD, lock, "lock held", args);
    }
  }

  private Map<String, Object> at(int region) {
    Map<String, Object> args = new LinkedHashMap<>();
    String where = text.regionLocation(region);
    if (!where.isEmpty()) {
      args.put("at", where);
    }
    args.put("region", text.regionName(region));
    return args;
  }

  // ---- slices
  // -------------------------------------------------------------------------------------

  private void open(
      Track t, long time, SliceType type, long key, String name, Map<String, Object> args)
      throws IOException {
    Slice s = new Slice(type, key, name, args);
    t.stack.add(s);
    begin(t, time, s, false);
    slices++;
  }

  /**
   * Ends the innermost open slice of this type and key (ignored when there is none). Slices opened
   * after it are ended with it and re-opened, so slices keep nesting.
   */
  private void close(Track t, long time, SliceType type, long key, Map<String, Object> endArgs)
      throws IOException {
    int i = find(t, type, key);
    if (i < 0 && BY_TYPE_ALONE.contains(type)) {
      i = find(t, type, ANY_KEY); // a wait's exit names a different call site: still its end
    }
    if (i < 0) {
      return;
    }
    List<Slice> above = new ArrayList<>(t.stack.subList(i + 1, t.stack.size()));
    for (int j = t.stack.size() - 1; j > i; j--) {
      end(t, time, t.stack.get(j), null);
    }
    end(t, time, t.stack.get(i), endArgs);
    t.stack.subList(i, t.stack.size()).clear();
    for (Slice s : above) {
      t.stack.add(s);
      begin(t, time, s, true);
      slices++;
    }
  }

  private static int find(Track t, SliceType type, long key) {
    for (int i = t.stack.size() - 1; i >= 0; i--) {
      Slice s = t.stack.get(i);
      if (s.type == type && (key == ANY_KEY || s.key == key)) {
        return i;
      }
    }
    return -1;
  }

  private void closeAll(Track t, long time) throws IOException {
    for (int j = t.stack.size() - 1; j >= 0; j--) {
      end(t, time, t.stack.get(j), Map.of("unfinished", true));
    }
    t.stack.clear();
  }

  private void begin(Track t, long time, Slice s, boolean continued) throws IOException {
    head(s.name, "B", time, t);
    g.writeObjectFieldStart("args");
    for (Map.Entry<String, Object> a : s.args.entrySet()) {
      g.writeObjectField(a.getKey(), a.getValue());
    }
    if (continued) {
      g.writeBooleanField("continued", true);
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  private void end(Track t, long time, Slice s, Map<String, Object> args) throws IOException {
    head(s.name, "E", time, t);
    if (args != null && !args.isEmpty()) {
      g.writeObjectFieldStart("args");
      for (Map.Entry<String, Object> a : args.entrySet()) {
        g.writeObjectField(a.getKey(), a.getValue());
      }
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  /** An arrow from {@code from} at {@code fromTime} to the innermost open slice of {@code to}. */
  private void flow(Track from, long fromTime, Track to, long toTime, String name, String marker)
      throws IOException {
    long id = nextFlow++;
    // Source: a zero-length marker slice that encloses the flow start.
    head(marker, "B", fromTime, from);
    g.writeEndObject();
    head(name, "s", fromTime, from);
    g.writeNumberField("id", id);
    g.writeEndObject();
    head(marker, "E", fromTime, from);
    g.writeEndObject();
    // Target: the enclosing slice (open on this track now), or a marker when nothing is open.
    boolean bare = to.stack.isEmpty();
    if (bare) {
      head(name, "B", toTime, to);
      g.writeEndObject();
    }
    head(name, "f", toTime, to);
    g.writeNumberField("id", id);
    g.writeStringField("bp", "e");
    g.writeEndObject();
    if (bare) {
      head(name, "E", toTime, to);
      g.writeEndObject();
    }
    flows++;
  }

  private void instant(Track t, long time, EventCursor c) throws IOException {
    EventKind kind = c.kind();
    head(kind.id(), "i", time, t);
    g.writeStringField("s", "t");
    g.writeObjectFieldStart("args");
    for (int i = 0; i < kind.fieldCount(); i++) {
      Field f = kind.field(i);
      String name = EventText.fieldName(kind, f);
      long v = c.field(i);
      switch (f) {
        case REGION:
          g.writeStringField(name, text.region((int) v));
          break;
        case POOL:
          g.writeStringField(name, text.pool((int) v));
          break;
        case OBJECT:
          g.writeStringField(name, text.object(v));
          break;
        case THREAD:
          g.writeStringField(name, text.thread(v));
          break;
        case WAIT_KIND:
          g.writeStringField(name, WaitKind.name(v));
          break;
        default:
          g.writeNumberField(name, v);
      }
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  /** Starts an event object with its common fields; the caller adds more and ends it. */
  private void head(String name, String ph, long time, Track t) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", name);
    g.writeStringField("cat", CAT);
    g.writeStringField("ph", ph);
    g.writeFieldName("ts");
    g.writeNumber(micros(time - start));
    g.writeNumberField("pid", t.pid);
    g.writeNumberField("tid", t.tid);
  }

  /** Nanoseconds as microseconds with three exact decimals: {@code 1234.567}. */
  static String micros(long nanos) {
    long abs = Math.abs(nanos);
    StringBuilder b = new StringBuilder(16);
    if (nanos < 0) {
      b.append('-');
    }
    b.append(abs / 1000).append('.');
    long frac = abs % 1000;
    if (frac < 100) {
      b.append('0');
    }
    if (frac < 10) {
      b.append('0');
    }
    return b.append(frac).toString();
  }
}
