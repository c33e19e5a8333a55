package dev.weft.export.otf2;

import dev.weft.analysis.TaskNames;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.RegionDef;
import dev.weft.trace.pairing.Construct;
import dev.weft.trace.pairing.PairMatcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns Weft events, read in time order, into OTF2 event records of the thread's location. What
 * pairs with what is the pairing grammar's ({@link PairMatcher}, FORMAT.md "Pairing"); regions nest
 * per location as OTF2 requires: an exit without its entry is left out, an exit of a region that is
 * not the innermost leaves the inner ones first, and regions still open when a thread's events end
 * are left at its last event. See analyzer-cli/EXPORT.md for the mapping.
 */
final class Otf2Events implements PairMatcher.Listener {
  // Event record types.
  private static final int REC_MEASUREMENT_ON_OFF = 11;
  private static final int REC_ENTER = 12;
  private static final int REC_LEAVE = 13;
  private static final int REC_THREAD_FORK = 53;
  private static final int REC_THREAD_JOIN = 54;
  private static final int REC_THREAD_TEAM_BEGIN = 55;
  private static final int REC_THREAD_TEAM_END = 56;
  private static final int REC_THREAD_ACQUIRE_LOCK = 57;
  private static final int REC_THREAD_RELEASE_LOCK = 58;
  private static final int REC_THREAD_TASK_CREATE = 59;
  private static final int REC_THREAD_TASK_SWITCH = 60;
  private static final int REC_THREAD_TASK_COMPLETE = 61;
  private static final int REC_THREAD_CREATE = 62;
  private static final int REC_THREAD_BEGIN = 63;
  private static final int REC_THREAD_END = 65;

  private static final int MODE_ON = 1;
  private static final int MODE_OFF = 2;

  /** What an open region stands for, i.e. which event leaves it. */
  enum Scope {
    REGION,
    PARALLEL,
    TASK,
    LOCK_WAIT,
    BARRIER_WAIT,
    JOIN_WAIT,
    WAIT,
    SPIN,
    HELP
  }

  /** The scope of each construct of the pairing grammar that nests, by its ordinal. */
  private static final Scope[] SCOPES = new Scope[Construct.values().length];

  static {
    SCOPES[Construct.REGION.ordinal()] = Scope.REGION;
    SCOPES[Construct.PARALLEL.ordinal()] = Scope.PARALLEL;
    SCOPES[Construct.TASK.ordinal()] = Scope.TASK;
    SCOPES[Construct.JOIN_WAIT.ordinal()] = Scope.JOIN_WAIT;
    SCOPES[Construct.BARRIER_WAIT.ordinal()] = Scope.BARRIER_WAIT;
    SCOPES[Construct.LOCK_WAIT.ordinal()] = Scope.LOCK_WAIT;
    SCOPES[Construct.WAIT.ordinal()] = Scope.WAIT;
    SCOPES[Construct.SPIN.ordinal()] = Scope.SPIN;
    SCOPES[Construct.HELP.ordinal()] = Scope.HELP;
  }

  /** A task's OTF2 identity: team, creating thread, generation; and its region. */
  record TaskId(long team, long creator, long generation, long region, RegionDef site) {}

  /** An open region on a location. */
  private record Open(Scope scope, long key, long region, TaskId task, RegionDef site)
      implements TaskNames.OpenFrame {
    @Override
    public boolean isCode() {
      return scope == Scope.REGION || scope == Scope.PARALLEL || scope == Scope.TASK;
    }

    @Override
    public boolean isRegion() {
      return scope == Scope.REGION;
    }
  }

  /** One thread: its event file and what is open on it. */
  static final class Location {
    final long id;
    final int index;
    final long javaId;
    final long team; // its pool's thread team, or -1 outside pools
    final ChunkedFile file;

    /** Its open regions, one per construct the pairing grammar has open on the thread. */
    final List<Open> stack = new ArrayList<>();

    PairMatcher pairs;

    final Map<Long, ArrayDeque<Long>> held = new HashMap<>();
    long lastTime;
    long nextGeneration;
    boolean teamBegun;
    boolean ended;

    Location(long id, int index, long javaId, long team, ChunkedFile file) {
      this.id = id;
      this.index = index;
      this.javaId = javaId;
      this.team = team;
      this.file = file;
    }
  }

  /** What the events refer to: regions, teams, locks; kept by the exporter. */
  interface Refs {
    /** The OTF2 region of a Weft region id. */
    long region(int weftRegion);

    /** The OTF2 region of the tasks named after {@code site} (null: unknown). */
    long taskRegion(RegionDef site);

    /** The thread team of a pool (the team of all threads for 0 or an unknown pool). */
    long team(int pool);

    /** The thread contingent (all threads, for thread create/begin/end). */
    long contingent();

    /** A dense 32-bit id for a lock object. */
    long lock(long object);

    /** Converts a trace time to OTF2 ticks. */
    long ticks(long traceTime);
  }

  private final Definitions defs;
  private final Refs refs;
  private final Map<Long, TaskId> createdTasks = new HashMap<>();
  private final Map<Long, Long> lockOrder = new HashMap<>();
  private final Encoding record = new Encoding();
  private final Encoding data = new Encoding();

  /** The location and OTF2 time of the event the pairing grammar is being given. */
  private Location current;

  private long now;

  Otf2Events(Definitions defs, Refs refs) {
    this.defs = defs;
    this.refs = refs;
  }

  /** Translates the cursor's current event on its location {@code l}. */
  void event(Location l, EventCursor c) throws IOException {
    long t = refs.ticks(c.time());
    l.lastTime = t;
    if (l.pairs == null) {
      l.pairs = new PairMatcher(this);
    }
    EventKind kind = c.kind();
    // A virtual thread's begin or end on its carrier (traces before 1.3) is not the carrier's.
    boolean carrierOwn = l.pairs.mounted() == 0;
    current = l;
    now = t;
    try {
      if (kind != EventKind.THREAD_BEGIN && (kind != EventKind.THREAD_END || carrierOwn)) {
        beginTeam(l, t);
      }
      l.pairs.event(c);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    switch (kind) {
      case THREAD_BEGIN:
        if (carrierOwn) {
          threadEvent(l, t, REC_THREAD_BEGIN, l.javaId);
          beginTeam(l, t);
        }
        break;
      case THREAD_END:
        if (carrierOwn) {
          endTeam(l, t);
          threadEvent(l, t, REC_THREAD_END, l.javaId);
          l.ended = true;
        }
        break;
      case TASK_CREATE:
        taskCreate(l, t, c.region(), c.get(Field.TASK), (int) c.get(Field.POOL));
        break;
      case MEASUREMENT_ON:
      case MEASUREMENT_OFF:
        data.clear();
        data.u8(kind == EventKind.MEASUREMENT_ON ? MODE_ON : MODE_OFF);
        write(l, t, REC_MEASUREMENT_ON_OFF, data);
        break;
      case THREAD_CREATE:
        threadEvent(l, t, REC_THREAD_CREATE, c.get(Field.THREAD));
        break;
      default:
        break; // pairs: above; dropped, task_summary, notify, mounts: see EXPORT.md
    }
  }

  // ---- what the pairing grammar finds -----------------------------------------------------------

  @Override
  public void opened(PairMatcher m, int depth, EventCursor e) {
    Location l = current;
    long t = now;
    try {
      switch (m.construct(depth)) {
        case PARALLEL:
          data.clear();
          data.u8(Otf2Definitions.PARADIGM_OPENMP).u32(e.get(Field.PARALLELISM));
          write(l, t, REC_THREAD_FORK, data);
          enter(l, t, Scope.PARALLEL, m.key(depth), e.region(), null);
          break;
        case TASK:
          taskBegin(l, t, m.key(depth));
          break;
        default:
          enter(l, t, SCOPES[m.construct(depth).ordinal()], m.key(depth), e.region(), null);
          break;
      }
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
  }

  @Override
  public void closed(PairMatcher m, int depth, EventCursor e) {
    Location l = current;
    long t = now;
    try {
      Open found = l.stack.get(depth);
      for (int j = l.stack.size() - 1; j >= depth; j--) {
        regionEvent(l, t, REC_LEAVE, l.stack.remove(j).region());
      }
      if (found.scope() == Scope.PARALLEL) {
        data.clear();
        data.u8(Otf2Definitions.PARADIGM_OPENMP);
        write(l, t, REC_THREAD_JOIN, data);
      } else if (found.scope() == Scope.TASK) {
        taskEvent(l, t, REC_THREAD_TASK_COMPLETE, found.task());
      }
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
  }

  @Override
  public void unmatched(PairMatcher m, Construct c, EventCursor e) {
    if (c == Construct.LOCK_HOLD) { // a semaphore released by another thread, or held before
      long lock = e.field(0);
      lockEvent(REC_THREAD_RELEASE_LOCK, lock, lockOrder.getOrDefault(lock, 0L));
    }
  }

  @Override
  public void acquired(PairMatcher m, long lock, int count, boolean took, EventCursor e) {
    if (took) {
      long order = lockOrder.merge(lock, 1L, Long::sum);
      current.held.computeIfAbsent(lock, k -> new ArrayDeque<>()).push(order);
      lockEvent(REC_THREAD_ACQUIRE_LOCK, lock, order);
    }
  }

  @Override
  public void released(PairMatcher m, long lock, int count, long since, EventCursor e) {
    ArrayDeque<Long> orders = current.held.get(lock);
    long order = orders.pop();
    if (orders.isEmpty()) {
      current.held.remove(lock);
    }
    lockEvent(REC_THREAD_RELEASE_LOCK, lock, order);
  }

  private void lockEvent(int type, long lock, long order) {
    try {
      lockEvent(current, now, type, lock, order);
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
  }

  @Override
  public void ended(PairMatcher m, EventCursor e) {
    try {
      leaveAll(current, now);
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
    current.held.clear();
  }

  /** Ends a location whose events ended without thread_end: leaves what is open. */
  void finish(Location l) throws IOException {
    if (!l.ended) {
      leaveAll(l, l.lastTime);
      endTeam(l, l.lastTime);
      l.ended = true;
    }
  }

  private void taskCreate(Location l, long t, int site, long task, int pool) throws IOException {
    RegionDef named = TaskNames.userSite(defs.region(site), l.stack);
    TaskId id =
        new TaskId(refs.team(pool), l.index, l.nextGeneration++, refs.taskRegion(named), named);
    createdTasks.put(task, id);
    taskEvent(l, t, REC_THREAD_TASK_CREATE, id);
  }

  private void taskBegin(Location l, long t, long task) throws IOException {
    TaskId id = createdTasks.remove(task);
    if (id == null) { // created before the trace started, or by an unwoven call
      id = new TaskId(refs.team(0), l.index, l.nextGeneration++, refs.taskRegion(null), null);
    }
    taskEvent(l, t, REC_THREAD_TASK_SWITCH, id);
    enter(l, t, Scope.TASK, task, -1, id);
  }

  private void beginTeam(Location l, long t) throws IOException {
    if (l.team >= 0 && !l.teamBegun) {
      l.teamBegun = true;
      data.clear();
      data.u32(l.team);
      write(l, t, REC_THREAD_TEAM_BEGIN, data);
    }
  }

  private void endTeam(Location l, long t) throws IOException {
    if (l.teamBegun) {
      l.teamBegun = false;
      data.clear();
      data.u32(l.team);
      write(l, t, REC_THREAD_TEAM_END, data);
    }
  }

  private void enter(Location l, long t, Scope scope, long key, int weftRegion, TaskId task)
      throws IOException {
    long region = task != null ? task.region() : refs.region(weftRegion);
    RegionDef site = task != null ? task.site() : defs.region(weftRegion);
    l.stack.add(new Open(scope, key, region, task, site));
    regionEvent(l, t, REC_ENTER, region);
  }

  private void leaveAll(Location l, long t) throws IOException {
    for (int j = l.stack.size() - 1; j >= 0; j--) {
      regionEvent(l, t, REC_LEAVE, l.stack.remove(j).region());
    }
  }

  /** Enter and Leave are the two records without a length byte. */
  private void regionEvent(Location l, long t, int type, long region) throws IOException {
    record.clear();
    record.u8(type).u32(region);
    l.file.event(t, record);
  }

  private void taskEvent(Location l, long t, int type, TaskId id) throws IOException {
    data.clear();
    data.u32(id.team()).u32(id.creator()).u32(id.generation());
    write(l, t, type, data);
  }

  private void lockEvent(Location l, long t, int type, long lock, long order) throws IOException {
    data.clear();
    data.u8(Otf2Definitions.PARADIGM_PTHREAD).u32(refs.lock(lock)).u32(order);
    write(l, t, type, data);
  }

  private void threadEvent(Location l, long t, int type, long sequence) throws IOException {
    data.clear();
    data.u32(refs.contingent()).u64(sequence);
    write(l, t, type, data);
  }

  private void write(Location l, long t, int type, Encoding fields) throws IOException {
    record.clear();
    record.record(type, fields);
    l.file.event(t, record);
  }
}
