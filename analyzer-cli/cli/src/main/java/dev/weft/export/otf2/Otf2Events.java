package dev.weft.export.otf2;

import dev.weft.analysis.TaskNames;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.LockFlags;
import dev.weft.trace.RegionDef;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns Weft events, read in time order, into OTF2 event records of the thread's location. Regions
 * nest per location as OTF2 requires: an exit without its entry is left out, an exit of a region
 * that is not the innermost leaves the inner ones first, and regions still open when a thread's
 * events end are left at its last event. See analyzer-cli/EXPORT.md for the mapping.
 */
final class Otf2Events {
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

  /** A task's OTF2 identity: team, creating thread, generation; and its region. */
  record TaskId(long team, long creator, long generation, long region, RegionDef site) {}

  /** An open region on a location. */
  private record Open(Scope scope, long key, long region, TaskId task, RegionDef site) {}

  /** One thread: its event file and what is open on it. */
  static final class Location {
    final long id;
    final int index;
    final long javaId;
    final long team; // its pool's thread team, or -1 outside pools
    final ChunkedFile file;
    final List<Open> stack = new ArrayList<>();
    final Map<Long, ArrayDeque<Long>> held = new HashMap<>();
    long lastTime;
    long nextGeneration;
    boolean teamBegun;
    boolean ended;
    boolean mounted; // a virtual thread is mounted on this carrier

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

  Otf2Events(Definitions defs, Refs refs) {
    this.defs = defs;
    this.refs = refs;
  }

  /** Translates the cursor's current event on its location {@code l}. */
  void event(Location l, EventCursor c) throws IOException {
    long t = refs.ticks(c.time());
    l.lastTime = t;
    switch (c.kind()) {
      case VTHREAD_MOUNT:
      case VTHREAD_UNMOUNT:
        l.mounted = c.kind() == EventKind.VTHREAD_MOUNT;
        return;
      case THREAD_BEGIN:
      case THREAD_END:
        if (l.mounted) {
          return; // a virtual thread's begin or end on its carrier: not the carrier's
        }
        break;
      default:
        break;
    }
    switch (c.kind()) {
      case THREAD_BEGIN:
        threadEvent(l, t, REC_THREAD_BEGIN, l.javaId);
        beginTeam(l, t);
        return;
      case THREAD_END:
        beginTeam(l, t);
        leaveAll(l, t);
        endTeam(l, t);
        threadEvent(l, t, REC_THREAD_END, l.javaId);
        l.ended = true;
        return;
      default:
        beginTeam(l, t);
    }
    switch (c.kind()) {
      case ENTER:
        enter(l, t, Scope.REGION, c.region(), c.region(), null);
        break;
      case EXIT:
        leave(l, t, Scope.REGION, c.region());
        break;
      case FORK:
        data.clear();
        data.u8(Otf2Definitions.PARADIGM_OPENMP).u32(c.get(Field.PARALLELISM));
        write(l, t, REC_THREAD_FORK, data);
        enter(l, t, Scope.PARALLEL, c.region(), c.region(), null);
        break;
      case JOIN:
        leave(l, t, Scope.PARALLEL, c.region());
        data.clear();
        data.u8(Otf2Definitions.PARADIGM_OPENMP);
        write(l, t, REC_THREAD_JOIN, data);
        break;
      case TASK_CREATE:
        taskCreate(l, t, c.region(), c.get(Field.TASK), (int) c.get(Field.POOL));
        break;
      case TASK_BEGIN:
        taskBegin(l, t, c.get(Field.TASK));
        break;
      case TASK_END:
        {
          Open task = leave(l, t, Scope.TASK, c.get(Field.TASK));
          if (task != null) {
            taskEvent(l, t, REC_THREAD_TASK_COMPLETE, task.task());
          }
          break;
        }
      case JOIN_WAIT_ENTER:
        enter(l, t, Scope.JOIN_WAIT, c.region(), c.region(), null);
        break;
      case JOIN_WAIT_EXIT:
        leave(l, t, Scope.JOIN_WAIT, c.region());
        break;
      case BARRIER_ENTER:
        enter(l, t, Scope.BARRIER_WAIT, c.get(Field.OBJECT), c.region(), null);
        break;
      case BARRIER_EXIT:
        leave(l, t, Scope.BARRIER_WAIT, c.get(Field.OBJECT));
        break;
      case LOCK_REQUEST:
        enter(l, t, Scope.LOCK_WAIT, c.get(Field.OBJECT), c.region(), null);
        break;
      case LOCK_ACQUIRED:
        lockAcquired(l, t, c.get(Field.OBJECT), c.get(Field.FLAGS));
        break;
      case LOCK_RELEASED:
        lockReleased(l, t, c.get(Field.OBJECT));
        break;
      case WAIT_ENTER:
        enter(l, t, Scope.WAIT, c.region(), c.region(), null);
        break;
      case WAIT_EXIT:
        leave(l, t, Scope.WAIT, c.region());
        break;
      case SPIN_ENTER:
        enter(l, t, Scope.SPIN, c.region(), c.region(), null);
        break;
      case SPIN_EXIT:
        leave(l, t, Scope.SPIN, c.region());
        break;
      case HELP_ENTER:
        enter(l, t, Scope.HELP, c.region(), c.region(), null);
        break;
      case HELP_EXIT:
        leave(l, t, Scope.HELP, c.region());
        break;
      case MEASUREMENT_ON:
      case MEASUREMENT_OFF:
        data.clear();
        data.u8(c.kind() == EventKind.MEASUREMENT_ON ? MODE_ON : MODE_OFF);
        write(l, t, REC_MEASUREMENT_ON_OFF, data);
        break;
      case THREAD_CREATE:
        threadEvent(l, t, REC_THREAD_CREATE, c.get(Field.THREAD));
        break;
      default:
        break; // dropped, task_summary, notify, virtual thread mounts: see EXPORT.md
    }
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
    RegionDef named = userSite(l, site);
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

  /**
   * The creation site if it is user code, else the innermost user region, parallel region or task
   * open on the thread (as the Chrome export names tasks).
   */
  private RegionDef userSite(Location l, int site) {
    RegionDef r = defs.region(site);
    if (TaskNames.isUserCode(r)) {
      return r;
    }
    for (int i = l.stack.size() - 1; i >= 0; i--) {
      Open o = l.stack.get(i);
      boolean code =
          o.scope() == Scope.REGION || o.scope() == Scope.PARALLEL || o.scope() == Scope.TASK;
      if (code && TaskNames.isUserCode(o.site())) { // code the user wrote, not a wait inside it
        return o.site();
      }
    }
    return r;
  }

  private void lockAcquired(Location l, long t, long lock, long flags) throws IOException {
    leave(l, t, Scope.LOCK_WAIT, lock);
    if ((flags & (LockFlags.FAILED | LockFlags.ABORTED)) != 0) {
      return;
    }
    long order = lockOrder.merge(lock, 1L, Long::sum);
    l.held.computeIfAbsent(lock, k -> new ArrayDeque<>()).push(order);
    lockEvent(l, t, REC_THREAD_ACQUIRE_LOCK, lock, order);
  }

  private void lockReleased(Location l, long t, long lock) throws IOException {
    ArrayDeque<Long> orders = l.held.get(lock);
    long order;
    if (orders != null && !orders.isEmpty()) {
      order = orders.pop();
      if (orders.isEmpty()) {
        l.held.remove(lock);
      }
    } else { // a semaphore released by another thread, or acquired before the trace
      order = lockOrder.getOrDefault(lock, 0L);
    }
    lockEvent(l, t, REC_THREAD_RELEASE_LOCK, lock, order);
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

  /**
   * Leaves the innermost open region of this scope and key (for waits, of this scope alone when the
   * exit names another call site), and the regions inside it; null when none is open.
   */
  private Open leave(Location l, long t, Scope scope, long key) throws IOException {
    int i = find(l, scope, key, true);
    if (i < 0 && scope != Scope.REGION && scope != Scope.TASK && scope != Scope.PARALLEL) {
      i = find(l, scope, key, false);
    }
    if (i < 0) {
      return null;
    }
    Open found = l.stack.get(i);
    for (int j = l.stack.size() - 1; j >= i; j--) {
      regionEvent(l, t, REC_LEAVE, l.stack.remove(j).region());
    }
    return found;
  }

  private static int find(Location l, Scope scope, long key, boolean byKey) {
    for (int i = l.stack.size() - 1; i >= 0; i--) {
      Open o = l.stack.get(i);
      if (o.scope() == scope && (!byKey || o.key() == key)) {
        return i;
      }
    }
    return -1;
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
