package dev.weft.cli;

import dev.weft.analysis.PoolNames;
import dev.weft.analysis.TaskNames;
import dev.weft.export.ChromeFilter;
import dev.weft.export.ChromeFilter.Kind;
import dev.weft.export.ChromeJson;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.LockFlags;
import dev.weft.trace.PoolDef;
import dev.weft.trace.ProcessDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.WaitKind;
import dev.weft.trace.pairing.Construct;
import dev.weft.trace.pairing.PairMatcher;
import dev.weft.trace.pairing.Role;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a trace as Chrome Trace Event JSON (the format Perfetto UI and chrome://tracing open), in
 * one streaming pass: memory holds the open slices of each thread, the tasks created but not yet
 * begun and the last release of each lock, never the events; each JSON event is written as soon as
 * it is known.
 *
 * <p>The JVM is one process ({@code pid} = its process id); each thread is a track ({@code tid} =
 * stream id), pool workers sorted together and after the threads outside pools. Slices are complete
 * events ({@code "X"}, written when they end) for user regions, parallel regions (fork..join),
 * tasks, lock waits (request..acquired), lock holds (acquired..released), barrier waits, join
 * waits, waits, spins and helping; other events are instants. No pretty-printing, no category, and
 * arguments only where they say something the name does not.
 *
 * <p><b>Nesting.</b> What pairs with what is the pairing grammar's ({@link PairMatcher}, FORMAT.md
 * "Pairing"). Slices on a track always nest: a construct's end ends the slices of the constructs
 * opened inside it; when a slice ends while lock holds taken after it are still open
 * (hand-over-hand locking), those are ended too and re-opened right after with {@code
 * "continued":1}; an end without its begin (a trace that starts late) is ignored; slices still open
 * when a thread's events end are closed at its last event.
 *
 * <p><b>Flows.</b> Arrows ({@code "s"}/{@code "f"}, same id) go from a task's creation to its
 * begin, and from a lock's release to its next acquisition by another thread. A flow is written
 * once both ends are known, so every start has its finish and the start's time is never after the
 * finish's. The start binds to the slice open on the source thread at that time (a zero-length
 * marker slice when there is none), the finish to the slice it points into.
 *
 * <p><b>Filters</b> ({@link ChromeFilter}): a time window (slices are clipped to it), threads, and
 * the kinds of slices written; everything is still read, so that task names and flows stay right.
 */
final class ChromeTraceExporter {
  /** An open slice. */
  private static final class Slice implements TaskNames.OpenFrame {
    final Kind kind;
    final long key;
    final String name;
    final String args; // JSON members without braces, or ""
    RegionDef site; // user code for naming tasks created inside, or null
    long start;
    boolean continued;
    boolean unfinished;
    boolean closing; // its construct ends now

    Slice(Kind kind, long key, String name, String args, RegionDef site, long start) {
      this.kind = kind;
      this.key = key;
      this.name = name;
      this.args = args;
      this.site = site;
      this.start = start;
    }

    @Override
    public RegionDef site() {
      return site;
    }

    @Override
    public boolean isCode() {
      return kind == Kind.REGION || kind == Kind.PARALLEL || kind == Kind.TASK;
    }

    @Override
    public boolean isRegion() {
      return kind == Kind.REGION;
    }
  }

  /** One thread's track. */
  private static final class Track {
    final int tid;
    final boolean shown;
    final List<Slice> stack = new ArrayList<>();
    long lastTime = Long.MIN_VALUE;
    boolean ended; // its last event so far is a thread_end
    final PairMatcher pairs;

    /** The slice of each nested construct the pairing grammar has open, by its depth. */
    Slice[] byDepth = new Slice[8];

    Track(int tid, boolean shown, PairMatcher.Listener listener) {
      this.tid = tid;
      this.shown = shown;
      this.pairs = new PairMatcher(listener);
    }
  }

  /** Where a flow starts: thread, time, and whether a slice was open there then. */
  private record Site(int stream, long time, boolean inSlice, RegionDef userSite) {}

  private final Trace trace;
  private final ChromeFilter filter;
  private final Definitions defs;
  private final EventText text;
  private final Map<Integer, Track> tracks = new HashMap<>();
  private final Map<Long, Site> createdTasks = new HashMap<>();
  private final Map<Long, Site> lastRelease = new HashMap<>();
  private final StringBuilder b = new StringBuilder(256);
  private Writer out;
  private long pid;
  private long start;
  private long from;
  private long to;
  private long nextFlow = 1;
  private long slices;
  private long flows;
  private long events;
  private long bytes;
  private boolean firstEvent = true;

  /** The track whose event the pairing grammar is being given. */
  private Track current;

  private final PairMatcher.Listener listener = new Pairs();

  ChromeTraceExporter(Trace trace, ChromeFilter filter) {
    this.trace = trace;
    this.filter = filter;
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

  /** Weft events read by the last {@link #write}. */
  long events() {
    return events;
  }

  /** Characters written by the last {@link #write} (bytes, but for non-ASCII names). */
  long chars() {
    return bytes;
  }

  /** Writes the trace to {@code out} (not closed). */
  void write(Writer out) throws IOException {
    this.out = out;
    ProcessDef p = defs.process();
    pid = p == null || p.pid() <= 0 ? 1 : p.pid();
    raw("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":");
    b.setLength(0);
    ChromeJson.string(b, "weft " + WeftVersion.version());
    if (p != null) {
      b.append(",\"jdk\":");
      ChromeJson.string(b, p.jdkVersion());
      b.append(",\"command_line\":");
      ChromeJson.string(b, p.commandLine());
    }
    raw(b);
    raw("},\"traceEvents\":[\n");
    writeMetadata(p);
    EventCursor c = trace.events();
    boolean first = true;
    boolean cut = false;
    while (c.next()) {
      if (first) {
        start = c.time();
        from = start + filter.fromNanos();
        to = filter.toNanos() == Long.MAX_VALUE ? Long.MAX_VALUE : start + filter.toNanos();
        first = false;
      }
      if (c.time() > to) {
        cut = true; // the window ends: what is open goes on past it
        break;
      }
      events++;
      event(c);
    }
    for (Track t : tracks.values()) {
      closeAll(t, cut && !t.ended ? to : t.lastTime);
    }
    raw("\n]}\n");
    out.flush();
  }

  private void writeMetadata(ProcessDef p) throws IOException {
    String app = p == null || p.mainClass().isEmpty() ? "JVM" : p.mainClass();
    metadata("process_name", 0, "name", p == null ? app : app + " (pid " + p.pid() + ")");
    Map<Integer, String> poolNames = PoolNames.of(defs);
    for (ThreadDef t : defs.threads()) {
      Track track = track(t.stream());
      if (!track.shown) {
        continue;
      }
      String name = t.name();
      PoolDef pool = t.pool() == 0 ? null : defs.pool(t.pool());
      // The pool, where the thread's name does not say it: a pool shown by its workers' names
      // (PoolNames) is said by every worker's name already.
      if (pool != null
          && pool.name().equals(poolNames.get(pool.id()))
          && !name.startsWith(pool.name())) {
        name = pool.name() + ": " + name;
      }
      metadata("thread_name", t.stream(), "name", name);
      // Pools as groups of adjacent tracks: threads outside pools first, then each pool's workers.
      metadata("thread_sort_index", t.stream(), "sort_index", (long) t.pool() << 20 | t.stream());
    }
  }

  private Track track(int stream) {
    return tracks.computeIfAbsent(
        stream,
        s -> {
          ThreadDef d = defs.thread(s);
          return new Track(s, filter.showsThread(s, d == null ? "" : d.name()), listener);
        });
  }

  private void metadata(String name, int tid, String key, Object value) throws IOException {
    b.setLength(0);
    b.append("{\"ph\":\"M\",\"name\":\"").append(name).append("\",\"pid\":").append(pid);
    b.append(",\"tid\":").append(tid).append(",\"args\":{\"").append(key).append("\":");
    if (value instanceof String s) {
      ChromeJson.string(b, s);
    } else {
      b.append(value);
    }
    b.append("}}");
    emit(b);
  }

  // ---- events
  // -------------------------------------------------------------------------------------

  private void event(EventCursor c) throws IOException {
    Track t = track(c.stream());
    long time = c.time();
    t.lastTime = time;
    // A virtual thread's end on its carrier does not end the carrier.
    t.ended = c.kind() == EventKind.THREAD_END && t.pairs.mounted() == 0;
    switch (c.kind()) {
      case TASK_CREATE:
        createdTasks.put(
            c.get(Field.TASK),
            new Site(
                c.stream(),
                time,
                inShownSlice(t),
                TaskNames.userSite(defs.region(c.region()), t.stack)));
        break;
      case LOCK_ACQUIRED:
        lockFlow(t, time, c.get(Field.OBJECT), c.get(Field.FLAGS));
        break;
      case LOCK_RELEASED:
        lastRelease.put(c.get(Field.OBJECT), new Site(c.stream(), time, inShownSlice(t), null));
        break;
      default:
        break;
    }
    current = t;
    try {
      t.pairs.event(c);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    if (isInstant(c.kind())) {
      instant(t, time, c);
    }
  }

  /**
   * Events that are no slice's begin or end: those that pair with nothing, and mounts (a carrier's
   * own view); not task creation (an arrow) nor thread begin and end (the track itself).
   */
  private static boolean isInstant(EventKind kind) {
    Role role = Construct.role(kind);
    return (role == Role.INSTANT || role == Role.GAP)
            && kind != EventKind.TASK_CREATE
            && kind != EventKind.THREAD_BEGIN
        || Construct.openedBy(kind) == Construct.MOUNT
        || Construct.closedBy(kind) == Construct.MOUNT;
  }

  /** Slices for what the pairing grammar finds on the current track. */
  private final class Pairs implements PairMatcher.Listener {
    @Override
    public void opened(PairMatcher m, int depth, EventCursor e) {
      Track t = current;
      long time = e.time();
      long key = m.key(depth);
      int region = e.region();
      Slice s;
      switch (m.construct(depth)) {
        case REGION:
          s = open(t, time, Kind.REGION, key, text.regionName(region), "");
          break;
        case PARALLEL:
          s = open(t, time, Kind.PARALLEL, key, named("parallel", region), "");
          break;
        case TASK:
          s = taskBegin(t, time, key);
          break;
        case JOIN_WAIT:
          s = open(t, time, Kind.JOIN, key, named("join wait", region), "");
          break;
        case BARRIER_WAIT:
          s = open(t, time, Kind.BARRIER, key, named("barrier", region), "");
          break;
        case LOCK_WAIT:
          s = open(t, time, Kind.LOCK, key, named("lock wait", region), "");
          break;
        case WAIT:
          String wait = WaitKind.name(e.get(Field.WAIT_KIND));
          s = open(t, time, Kind.WAIT, key, named(wait, region), "");
          break;
        case SPIN:
          s = open(t, time, Kind.SPIN, key, named("spin", region), "");
          break;
        default:
          s = open(t, time, Kind.HELP, key, named("help", region), "");
          break;
      }
      if (depth == t.byDepth.length) {
        t.byDepth = Arrays.copyOf(t.byDepth, depth * 2);
      }
      t.byDepth[depth] = s;
    }

    @Override
    public void closed(PairMatcher m, int depth, EventCursor e) {
      Track t = current;
      for (int d = depth; d < m.depth(); d++) {
        t.byDepth[d].closing = true;
      }
      int i = t.stack.lastIndexOf(t.byDepth[depth]);
      if (i >= 0) {
        endFrom(t, e.time(), i);
      }
    }

    @Override
    public void acquired(PairMatcher m, long lock, int count, boolean took, EventCursor e) {
      if (took) {
        long flags = e.field(1);
        String args = flags == 0 ? "" : "\"flags\":\"" + EventText.lockFlags(flags) + "\"";
        open(current, e.time(), Kind.HOLD, lock, "lock held", args);
      }
    }

    @Override
    public void released(PairMatcher m, long lock, int count, long since, EventCursor e) {
      int i = find(current, Kind.HOLD, lock);
      if (i >= 0) {
        current.stack.get(i).closing = true;
        endFrom(current, e.time(), i);
      }
    }
  }

  /** True when a slice the filter writes is open on the thread: a flow starting now binds to it. */
  private boolean inShownSlice(Track t) {
    for (Slice s : t.stack) {
      if (filter.shows(s.kind)) {
        return true;
      }
    }
    return false;
  }

  private Slice taskBegin(Track t, long time, long task) {
    Site created = createdTasks.remove(task);
    if (created == null) {
      return open(t, time, Kind.TASK, task, "task", "");
    }
    RegionDef site = created.userSite();
    Slice s = open(t, time, Kind.TASK, task, TaskNames.taskName(site), "");
    s.site = TaskNames.isUserCode(site) ? site : null;
    if (created.stream() != t.tid) { // on the same thread, the nesting shows where it came from
      try {
        flow(created, t, time, Kind.FLOW, "task");
      } catch (IOException x) {
        throw new UncheckedIOException(x);
      }
    }
    return s;
  }

  /** An arrow from the lock's last release by another thread into the hold that begins now. */
  private void lockFlow(Track t, long time, long lock, long flags) throws IOException {
    boolean acquired = (flags & (LockFlags.FAILED | LockFlags.ABORTED)) == 0;
    Site released = acquired ? lastRelease.get(lock) : null;
    if (released != null && (flags & LockFlags.REENTRANT) == 0) {
      lastRelease.remove(lock);
      int waitAt = find(t, Kind.LOCK, lock);
      if (released.stream() != t.tid && waitAt >= 0) {
        flow(released, t, time, Kind.HANDOFF, "lock");
      }
    }
  }

  /** {@code what File.java:12}: a slice named by what it is and where (one name, no arguments). */
  private String named(String what, int region) {
    String where = text.regionLocation(region);
    return where.isEmpty() ? what : what + " " + where;
  }

  // ---- slices
  // -------------------------------------------------------------------------------------

  private Slice open(Track t, long time, Kind kind, long key, String name, String args) {
    RegionDef site = null;
    if (kind == Kind.REGION || kind == Kind.PARALLEL) {
      RegionDef r = defs.region((int) key);
      site = TaskNames.isUserCode(r) ? r : null;
    }
    Slice s = new Slice(kind, key, name, args, site, time);
    t.stack.add(s);
    return s;
  }

  /**
   * Ends the slices from stack position {@code i} up at {@code time}: those marked closing are
   * gone, the others (lock holds taken inside) are re-opened right away, so slices keep nesting.
   */
  private void endFrom(Track t, long time, int i) {
    try {
      for (int j = t.stack.size() - 1; j >= i; j--) {
        end(t, time, t.stack.get(j));
      }
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
    // Only the ended part of the stack: a deep recursion's stack is long, and scanning all of it
    // at every end made the export quadratic in the nesting depth.
    t.stack.subList(i, t.stack.size()).removeIf(s -> s.closing);
    for (int j = i; j < t.stack.size(); j++) {
      Slice s = t.stack.get(j);
      s.start = time;
      s.continued = true;
    }
  }

  private static int find(Track t, Kind kind, long key) {
    for (int i = t.stack.size() - 1; i >= 0; i--) {
      Slice s = t.stack.get(i);
      if (s.kind == kind && s.key == key) {
        return i;
      }
    }
    return -1;
  }

  /** Ends what is still open when a thread's events (or the time window) end. */
  private void closeAll(Track t, long time) throws IOException {
    for (int j = t.stack.size() - 1; j >= 0; j--) {
      Slice s = t.stack.get(j);
      s.unfinished = true;
      end(t, time, s);
    }
    t.stack.clear();
  }

  /** Writes a slice that ends at {@code time}, clipped to the time window. */
  private void end(Track t, long time, Slice s) throws IOException {
    long begin = Math.max(s.start, from);
    long finish = Math.min(time, to);
    if (!t.shown || !filter.shows(s.kind) || finish < begin) {
      return;
    }
    b.setLength(0);
    b.append("{\"ph\":\"X\",\"name\":");
    ChromeJson.string(b, s.name);
    b.append(",\"ts\":");
    ChromeJson.micros(b, begin - start);
    b.append(",\"dur\":");
    ChromeJson.micros(b, finish - begin);
    b.append(",\"pid\":").append(pid).append(",\"tid\":").append(t.tid);
    if (!s.args.isEmpty() || s.continued || s.unfinished) {
      b.append(",\"args\":{").append(s.args);
      String sep = s.args.isEmpty() ? "" : ",";
      if (s.continued) {
        b.append(sep).append("\"continued\":1");
        sep = ",";
      }
      if (s.unfinished) {
        b.append(sep).append("\"unfinished\":1");
      }
      b.append('}');
    }
    b.append('}');
    emit(b);
    slices++;
  }

  /** An arrow from {@code from} to the innermost open slice of {@code to}, which begins now. */
  private void flow(Site source, Track target, long time, Kind kind, String name)
      throws IOException {
    Track src = tracks.get(source.stream());
    if (src == null
        || !src.shown
        || !target.shown
        || !filter.shows(kind)
        || source.time() < from
        || time > to) {
      return;
    }
    long id = nextFlow++;
    if (!source.inSlice()) { // something for the start to bind to
      b.setLength(0);
      b.append("{\"ph\":\"X\",\"name\":\"").append(name).append(" source\",\"ts\":");
      ChromeJson.micros(b, source.time() - start);
      b.append(",\"dur\":0,\"pid\":").append(pid).append(",\"tid\":").append(src.tid);
      b.append('}');
      emit(b);
      slices++;
    }
    flowEnd(name, "s", id, source.time(), src.tid);
    flowEnd(name, "f", id, time, target.tid);
    flows++;
  }

  private void flowEnd(String name, String ph, long id, long time, int tid) throws IOException {
    b.setLength(0);
    b.append("{\"ph\":\"").append(ph).append("\",\"name\":\"").append(name).append('"');
    b.append(",\"id\":").append(id).append(",\"ts\":");
    ChromeJson.micros(b, time - start);
    b.append(",\"pid\":").append(pid).append(",\"tid\":").append(tid).append('}');
    emit(b);
  }

  private void instant(Track t, long time, EventCursor c) throws IOException {
    if (!t.shown || !filter.shows(Kind.INSTANT) || time < from) {
      return;
    }
    EventKind kind = c.kind();
    b.setLength(0);
    b.append("{\"ph\":\"i\",\"s\":\"t\",\"name\":\"").append(kind.id()).append("\",\"ts\":");
    ChromeJson.micros(b, time - start);
    b.append(",\"pid\":").append(pid).append(",\"tid\":").append(t.tid).append(",\"args\":{");
    for (int i = 0; i < kind.fieldCount(); i++) {
      Field f = kind.field(i);
      long v = c.field(i);
      if (i > 0) {
        b.append(',');
      }
      b.append('"').append(EventText.fieldName(kind, f)).append("\":");
      switch (f) {
        case REGION:
          ChromeJson.string(b, text.region((int) v));
          break;
        case POOL:
          ChromeJson.string(b, text.pool((int) v));
          break;
        case OBJECT:
          ChromeJson.string(b, text.object(v));
          break;
        case THREAD:
          ChromeJson.string(b, text.thread(v));
          break;
        case WAIT_KIND:
          ChromeJson.string(b, WaitKind.name(v));
          break;
        default:
          b.append(v);
      }
    }
    b.append("}}");
    emit(b);
  }

  /** Writes one event object, one per line. */
  private void emit(CharSequence event) throws IOException {
    if (!firstEvent) {
      raw(",\n");
    }
    firstEvent = false;
    raw(event);
  }

  private void raw(CharSequence s) throws IOException {
    out.append(s);
    bytes += s.length();
  }
}
