package dev.weft.report;

import dev.weft.analysis.PoolNames;
import dev.weft.analysis.RunWindow;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.WaitKind;
import dev.weft.trace.pairing.Construct;
import dev.weft.trace.pairing.PairMatcher;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds a {@link Timeline} in one streaming pass over a trace's merged event cursor.
 *
 * <p>What pairs with what is the pairing grammar's ({@link PairMatcher}, FORMAT.md "Pairing"): each
 * thread keeps a stack of open intervals beside it; a construct's end closes its interval and any
 * interval opened inside it that is still open (helping is not drawn: its time stays with the join
 * wait it is in). An end with no matching start (the trace began inside it) is counted and not
 * drawn: the timeline never invents a start it did not see. Intervals still open at the end of the
 * trace are drawn up to it and marked.
 *
 * <p>Intervals are kept one by one until there are more than {@link TimelineLimits#maxIntervals()};
 * at the same time every thread's innermost activity is accumulated into a {@link ColumnGrid}, so
 * when the limit is passed the detail is dropped and the pass goes on summarising. Each thread also
 * keeps its longest stretches of one innermost activity ({@link LongestStretches}, the interval
 * budget shared out over the threads), which a summarised timeline holds so that zooming in shows
 * real intervals. Memory: the detail up to the limit, threads × columns × kinds floats, the kept
 * stretches, the open intervals, and (in detailed mode only) the tasks created but not yet begun.
 */
final class TimelineReader implements PairMatcher.Listener {
  private static final int TASK = IntervalKind.TASK.ordinal();
  private static final int REGION = IntervalKind.REGION.ordinal();
  private static final int PARALLEL = IntervalKind.PARALLEL.ordinal();
  private static final int LOCK_WAIT = IntervalKind.LOCK_WAIT.ordinal();
  private static final int BARRIER_WAIT = IntervalKind.BARRIER_WAIT.ordinal();
  private static final int JOIN_WAIT = IntervalKind.JOIN_WAIT.ordinal();
  private static final int WAIT = IntervalKind.WAIT.ordinal();
  private static final int NETWORK = IntervalKind.NETWORK.ordinal();
  private static final int SPIN = IntervalKind.SPIN.ordinal();
  private static final int SLEEP = IntervalKind.SLEEP.ordinal();
  private static final int LOCK_HOLD = IntervalKind.LOCK_HOLD.ordinal();

  /**
   * Width of the first columns when the trace's length cannot be estimated from its definitions.
   */
  private static final long DEFAULT_WIDTH = 1024;

  private final Trace trace;
  private final Definitions defs;
  private final TimelineLimits limits;
  private final List<OpenTrack> tracks = new ArrayList<>();
  private final List<Timeline.Group> groups = new ArrayList<>();

  /** Tracks by stream id (stream ids are small: the writer numbers them from 1). */
  private OpenTrack[] byStream = new OpenTrack[0];

  private final Map<String, Integer> labels = new LinkedHashMap<>();
  private final Map<Integer, Integer> regionLabels = new HashMap<>();

  /** Labels of (site, object or wait kind) pairs: kept while summarising, so cached. */
  private final Map<Long, Integer> siteLabels = new HashMap<>();

  /** Task id → {create time, creating track, label}: for arrows and task labels (detailed only). */
  private final Map<Long, long[]> created = new HashMap<>();

  private final int columns;
  private ColumnGrid grid;
  private boolean detailed = true;
  private long[] arrows = new long[64];
  private int arrowValues;
  private long events;
  private long intervals;
  private long arrowCount;
  private long unmatchedEnds;
  private long openAtEnd;
  private long last = Long.MIN_VALUE;

  /** The thread whose event the pairing grammar is being given. */
  private OpenTrack current;

  /**
   * Events before this trace time are drawn as if at it: an attached recording's analysis window
   * starts there ({@link RunWindow#earliestStart}), and the timeline shows what the analysis
   * counts.
   */
  private final long floor;

  /** The time of the event being handled, not before {@link #floor}. */
  private long now;

  private TimelineReader(Trace trace, TimelineLimits limits) {
    this.trace = trace;
    this.defs = trace.definitions();
    this.limits = limits;
    this.floor = RunWindow.earliestStart(defs);
    orderTracks();
    this.columns = limits.columnsFor(tracks.size());
    int kept = keptPerTrack(limits, tracks.size());
    for (OpenTrack t : tracks) {
      t.longest = new LongestStretches(kept);
    }
  }

  /** Reads every event of {@code trace} once and returns its timeline. */
  static Timeline read(Trace trace, TimelineLimits limits) {
    return new TimelineReader(trace, limits).run();
  }

  /** Stretches a summarised timeline keeps per thread: the interval budget shared, at least 16. */
  static int keptPerTrack(TimelineLimits limits, int threads) {
    return limits.maxIntervals() == 0
        ? 0
        : Math.max(16, limits.maxIntervals() / Math.max(1, threads));
  }

  /**
   * Threads outside any pool first, then each pool's workers (pools in the order of their ids); in
   * a group by creation (the Java thread id, which the JVM hands out as threads are created), then
   * by stream id.
   */
  private void orderTracks() {
    TreeMap<Integer, List<ThreadDef>> byPool = new TreeMap<>();
    for (int stream : trace.eventStreamIds()) {
      ThreadDef t = defs.thread(stream);
      byPool.computeIfAbsent(t.pool(), p -> new ArrayList<>()).add(t);
    }
    for (List<ThreadDef> members : byPool.values()) {
      members.sort(
          java.util.Comparator.comparingLong(ThreadDef::javaId)
              .thenComparingInt(ThreadDef::stream));
    }
    Map<Integer, String> poolNames = PoolNames.of(defs);
    for (Map.Entry<Integer, List<ThreadDef>> e : byPool.entrySet()) {
      int pool = e.getKey();
      PoolDef p = pool == 0 ? null : defs.pool(pool);
      String name = pool == 0 ? "threads" : poolNames.getOrDefault(pool, "pool " + pool);
      String kind = p == null ? "" : p.kind().id();
      int parallelism = p == null ? 0 : p.parallelism();
      groups.add(
          new Timeline.Group(name, pool, kind, parallelism, tracks.size(), e.getValue().size()));
      for (ThreadDef t : e.getValue()) {
        OpenTrack ot = new OpenTrack(tracks.size(), groups.size() - 1, t, this);
        tracks.add(ot);
        if (t.stream() >= byStream.length) {
          byStream = Arrays.copyOf(byStream, Math.max(t.stream() + 1, byStream.length * 2));
        }
        byStream[t.stream()] = ot;
      }
    }
  }

  private Timeline run() {
    EventCursor c = trace.events();
    while (c.next()) {
      long t = Math.max(c.time(), floor);
      now = t;
      OpenTrack track = byStream[c.stream()];
      if (grid == null) {
        grid = new ColumnGrid(tracks.size(), columns, t, initialWidth(t));
      }
      events++;
      last = Math.max(last, t);
      grid.ensure(t);
      if (track.first == Long.MIN_VALUE) {
        track.first = t;
      }
      track.last = t;
      handle(c, track, t);
    }
    long end = last;
    if (defs.closedCleanly() && grid != null && defs.endTime() > end) {
      end = defs.endTime();
      grid.ensure(end);
    }
    for (OpenTrack track : tracks) {
      if (track.depth > 0) {
        openAtEnd += track.depth;
        closeFrom(track, 0, end, true);
      }
      openAtEnd += track.pairs.heldLocks();
      releaseAll(track, end, true);
    }
    return build(end);
  }

  /** An estimate of the column width from the definitions: the trace's length over the columns. */
  private long initialWidth(long firstEvent) {
    if (!defs.closedCleanly()) {
      return DEFAULT_WIDTH;
    }
    long span = defs.endTime() - firstEvent;
    if (span <= 0) {
      return DEFAULT_WIDTH;
    }
    return span / columns + 1;
  }

  private void handle(EventCursor c, OpenTrack track, long t) {
    if (c.kind() == EventKind.TASK_CREATE && detailed) {
      created.put(c.field(1), new long[] {t, track.index, regionLabel((int) c.field(0))});
      if (created.size() > limits.maxIntervals()) {
        summarise();
      }
    }
    current = track;
    track.pairs.event(c);
  }

  // ---- what the pairing grammar finds -----------------------------------------------------------

  @Override
  public void opened(PairMatcher m, int depth, EventCursor e) {
    OpenTrack track = current;
    long t = now;
    long key = m.key(depth);
    switch (m.construct(depth)) {
      case REGION:
        push(track, REGION, key, t, regionLabel((int) key));
        break;
      case PARALLEL:
        push(track, PARALLEL, key, t, regionLabel((int) key));
        break;
      case TASK:
        taskBegin(track, key, t);
        break;
      case JOIN_WAIT:
        push(track, JOIN_WAIT, key, t, regionLabel((int) key));
        break;
      case BARRIER_WAIT:
        push(track, BARRIER_WAIT, key, t, objectLabel((int) e.field(0), key));
        break;
      case LOCK_WAIT:
        push(track, LOCK_WAIT, key, t, objectLabel((int) e.field(0), key));
        break;
      case WAIT:
        long kind = e.field(1);
        if (kind == WaitKind.THREAD_START) {
          return; // a thread's start, some microseconds: shown by its caller's interval
        }
        int drawn =
            kind == WaitKind.SLEEP || kind == WaitKind.NEXT_TASK || kind == WaitKind.TIMER_DUE
                ? SLEEP
                : WaitKind.network(kind) ? NETWORK : WAIT;
        push(track, drawn, key, t, waitLabel((int) key, kind));
        break;
      case SPIN:
        push(track, SPIN, key, t, regionLabel((int) key));
        break;
      default:
        return; // helping is not drawn
    }
    m.setTag(depth, track.depth - 1);
  }

  @Override
  public void closed(PairMatcher m, int depth, EventCursor e) {
    for (int d = depth; d < m.depth(); d++) {
      if (m.tag(d) >= 0) { // the outermost drawn interval closed with it
        closeFrom(current, m.tag(d), now, false);
        return;
      }
    }
  }

  @Override
  public void unmatched(PairMatcher m, Construct c, EventCursor e) {
    if (c != Construct.LOCK_HOLD) {
      unmatchedEnds++; // a release of a lock taken before the trace began is no interval's end
    }
  }

  @Override
  public void released(PairMatcher m, long lock, int count, long since, EventCursor e) {
    if (count == 0) {
      addHold(current, lock, since, now, false);
    }
  }

  @Override
  public void ended(PairMatcher m, EventCursor e) {
    closeFrom(current, 0, now, false);
    releaseAll(current, now, false);
  }

  private void taskBegin(OpenTrack track, long task, long t) {
    long[] origin = detailed ? created.remove(task) : null;
    int label = origin == null ? label("task") : (int) origin[2];
    push(track, TASK, task, t, label);
    if (origin != null) {
      arrowCount++;
      if (detailed) {
        if (arrowCount > limits.maxIntervals()) {
          summarise();
        } else {
          addArrow(origin[1], origin[0], track.index, t);
        }
      }
    }
  }

  private void push(OpenTrack track, int kind, long key, long t, int label) {
    account(track, t);
    track.push(kind, key, t, label);
  }

  /** Closes the open intervals of a track from stack position {@code from} up, at {@code t}. */
  private void closeFrom(OpenTrack track, int from, long t, boolean openAtTheEnd) {
    account(track, t);
    for (int i = track.depth - 1; i >= from; i--) {
      intervals++;
      if (detailed) {
        if (intervals > limits.maxIntervals()) {
          summarise();
        } else {
          int code = track.kinds[i] | Math.min(i, Timeline.DEPTH_MASK) << Timeline.DEPTH_SHIFT;
          if (openAtTheEnd) {
            code |= Timeline.OPEN_AT_END;
          }
          track.addInterval(track.starts[i], t, code, track.labels[i]);
        }
      }
    }
    track.depth = Math.min(track.depth, from);
  }

  /** Ends every lock hold of a track at {@code t}: its thread ended, or the trace did. */
  private void releaseAll(OpenTrack track, long t, boolean openAtTheEnd) {
    PairMatcher m = track.pairs;
    for (int i = 0; i < m.heldLocks(); i++) {
      addHold(track, m.heldLock(i), m.heldSince(i), t, openAtTheEnd);
    }
    m.clearHeld();
  }

  /** A lock held from {@code from} to {@code to}: an interval of the detail only (no column). */
  private void addHold(OpenTrack track, long lock, long from, long to, boolean openAtTheEnd) {
    from = Math.max(from, floor); // the grammar keeps the acquisition's own time
    intervals++;
    if (!detailed) {
      return;
    }
    if (intervals > limits.maxIntervals()) {
      summarise();
      return;
    }
    ObjectDef o = defs.object(lock);
    int label = label("lock on " + (o == null ? "object " + lock : o.className()));
    track.addInterval(from, to, LOCK_HOLD | (openAtTheEnd ? Timeline.OPEN_AT_END : 0), label);
  }

  /** Adds the time since the last change to the track's innermost open kind. */
  private void account(OpenTrack track, long t) {
    if (track.depth > 0) {
      int top = track.depth - 1;
      grid.add(track.index, track.kinds[top], track.since, t);
      track.longest.offer(track.since, t, track.kinds[top], track.labels[top]);
    }
    track.since = t;
  }

  /** Passing the limit: drop the detail; the column grid already holds everything so far. */
  private void summarise() {
    detailed = false;
    created.clear();
    arrows = new long[0];
    arrowValues = 0;
    for (OpenTrack t : tracks) {
      t.dropIntervals();
    }
  }

  private void addArrow(long fromTrack, long fromTime, long toTrack, long toTime) {
    if (arrowValues + 4 > arrows.length) {
      arrows = Arrays.copyOf(arrows, arrows.length * 2);
    }
    arrows[arrowValues++] = fromTrack;
    arrows[arrowValues++] = fromTime;
    arrows[arrowValues++] = toTrack;
    arrows[arrowValues++] = toTime;
  }

  // ---- labels
  // -------------------------------------------------------------------------------------

  private int regionLabel(int region) {
    Integer known = regionLabels.get(region);
    if (known != null) {
      return known;
    }
    RegionDef r = defs.region(region);
    int l = label(r == null ? "region " + region : describe(r));
    regionLabels.put(region, l);
    return l;
  }

  private int objectLabel(int region, long object) {
    Long key = (long) region << 32 ^ object;
    Integer known = siteLabels.get(key);
    if (known == null) {
      known = label(objectLabelText(region, object));
      cacheSiteLabel(key, known);
    }
    return known;
  }

  private void cacheSiteLabel(long key, int label) {
    if (siteLabels.size() >= 65_536) {
      siteLabels.clear(); // Many lock objects: a bounded cache, not a table of them all.
    }
    siteLabels.put(key, label);
  }

  private String objectLabelText(int region, long object) {
    RegionDef r = defs.region(region);
    ObjectDef o = defs.object(object);
    String site = r == null ? "region " + region : describe(r);
    return o == null ? site : site + " on " + o.className();
  }

  private int waitLabel(int region, long waitKind) {
    Long key = ~((long) region << 8 | waitKind & 0xFF);
    Integer known = siteLabels.get(key);
    if (known == null) {
      RegionDef r = defs.region(region);
      known =
          label(WaitKind.name(waitKind) + " @ " + (r == null ? "region " + region : describe(r)));
      cacheSiteLabel(key, known);
    }
    return known;
  }

  private static String describe(RegionDef r) {
    String where = r.location();
    return where.isEmpty() ? r.name() : r.name() + " @ " + where;
  }

  private int label(String text) {
    Integer id = labels.get(text);
    if (id == null) {
      id = labels.size();
      labels.put(text, id);
    }
    return id;
  }

  // ---- result
  // -------------------------------------------------------------------------------------

  private Timeline build(long end) {
    long origin = grid == null ? 0 : grid.origin();
    List<Timeline.Track> out = new ArrayList<>();
    int used = grid == null ? 0 : grid.used();
    // A summarised timeline names only the labels of the stretches it keeps.
    List<String> allLabels = new ArrayList<>(labels.keySet());
    List<String> keptLabels = new ArrayList<>();
    int[] relabel = new int[allLabels.size()];
    if (!detailed) {
      Arrays.fill(relabel, -1);
      for (OpenTrack t : tracks) {
        t.longest.labels(
            l -> {
              if (l >= 0 && relabel[l] < 0) {
                relabel[l] = keptLabels.size();
                keptLabels.add(allLabels.get(l));
              }
            });
      }
    }
    for (OpenTrack t : tracks) {
      long first = t.first == Long.MIN_VALUE ? -1 : t.first - origin;
      long lastSeen = t.first == Long.MIN_VALUE ? -1 : t.last - origin;
      out.add(
          new Timeline.Track(
              t.thread.name(),
              t.thread.stream(),
              t.thread.pool(),
              t.group,
              first,
              lastSeen,
              detailed ? t.sortedIntervals(origin) : t.longest.sorted(origin, l -> relabel[l]),
              detailed ? null : grid == null ? "" : grid.encode(t.index, used)));
    }
    long[] relArrows = Arrays.copyOf(arrows, arrowValues);
    for (int i = 0; i < relArrows.length; i += 4) {
      relArrows[i + 1] -= origin;
      relArrows[i + 3] -= origin;
    }
    return new Timeline(
        detailed ? Timeline.Mode.DETAILED : Timeline.Mode.SUMMARISED,
        origin,
        grid == null ? 0 : end - origin,
        grid == null ? 0 : grid.width(),
        used,
        groups,
        out,
        detailed ? allLabels : keptLabels,
        relArrows,
        limits,
        new Timeline.Stats(
            events,
            intervals,
            arrowCount,
            unmatchedEnds,
            openAtEnd,
            trace.eventStreamIds().size()));
  }

  /** A thread while its events are read: open intervals, and its detail while there is detail. */
  private static final class OpenTrack {
    final int index;
    final int group;
    final ThreadDef thread;
    LongestStretches longest;
    long first = Long.MIN_VALUE;
    long last;
    long since;

    int depth;
    int[] kinds = new int[8];
    long[] keys = new long[8];
    long[] starts = new long[8];
    int[] labels = new int[8];

    /** What the thread has open by the pairing grammar, locks held included. */
    final PairMatcher pairs;

    long[] ivStart = new long[16];
    long[] ivEnd = new long[16];
    int[] ivCode = new int[16];
    int[] ivLabel = new int[16];
    int ivCount;

    OpenTrack(int index, int group, ThreadDef thread, PairMatcher.Listener listener) {
      this.index = index;
      this.group = group;
      this.thread = thread;
      this.pairs = new PairMatcher(listener);
    }

    void push(int kind, long key, long t, int label) {
      if (depth == kinds.length) {
        kinds = Arrays.copyOf(kinds, depth * 2);
        keys = Arrays.copyOf(keys, depth * 2);
        starts = Arrays.copyOf(starts, depth * 2);
        labels = Arrays.copyOf(labels, depth * 2);
      }
      kinds[depth] = kind;
      keys[depth] = key;
      starts[depth] = t;
      labels[depth] = label;
      depth++;
    }

    void addInterval(long start, long end, int code, int label) {
      if (ivCount == ivStart.length) {
        int n = ivCount * 2;
        ivStart = Arrays.copyOf(ivStart, n);
        ivEnd = Arrays.copyOf(ivEnd, n);
        ivCode = Arrays.copyOf(ivCode, n);
        ivLabel = Arrays.copyOf(ivLabel, n);
      }
      ivStart[ivCount] = start;
      ivEnd[ivCount] = end;
      ivCode[ivCount] = code;
      ivLabel[ivCount] = label;
      ivCount++;
    }

    void dropIntervals() {
      ivStart = ivEnd = new long[0];
      ivCode = ivLabel = new int[0];
      ivCount = 0;
    }

    /** Intervals as {start, end, code, label} relative to {@code origin}, by start then depth. */
    List<long[]> sortedIntervals(long origin) {
      List<long[]> out = new ArrayList<>(ivCount);
      for (int i = 0; i < ivCount; i++) {
        out.add(new long[] {ivStart[i] - origin, ivEnd[i] - origin, ivCode[i], ivLabel[i]});
      }
      out.sort(
          (a, b) ->
              a[0] != b[0]
                  ? Long.compare(a[0], b[0])
                  : Long.compare(
                      (a[2] >> Timeline.DEPTH_SHIFT) & Timeline.DEPTH_MASK,
                      (b[2] >> Timeline.DEPTH_SHIFT) & Timeline.DEPTH_MASK));
      return out;
    }
  }
}
