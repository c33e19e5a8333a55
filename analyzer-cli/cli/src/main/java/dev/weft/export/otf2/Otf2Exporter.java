package dev.weft.export.otf2;

import dev.weft.analysis.PoolNames;
import dev.weft.analysis.TaskNames;
import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.PoolDef;
import dev.weft.trace.ProcessDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a Weft trace as an OTF2 archive (the format of Score-P, read by Vampir and the OTF2
 * tools), in one pass over the events in time order. Memory holds, per thread, its open regions and
 * a few KiB of output; the tasks created but not yet begun; and one id per lock.
 *
 * <p>The JVM is one location group (a process) below one system tree node (its host); each thread
 * is a location whose id is its stream id. Timestamps are nanoseconds since the epoch when the
 * trace has a clock, else since the first event. See analyzer-cli/EXPORT.md for what maps to what.
 */
public final class Otf2Exporter {
  private static final long TICKS_PER_SECOND = 1_000_000_000L;

  private final Trace trace;
  private final Definitions defs;
  private final Otf2Definitions out = new Otf2Definitions();
  private final Map<String, Long> taskRegionsByName = new HashMap<>();
  private final Map<Long, Long> locks = new HashMap<>();
  private final Map<Integer, Long> teams = new HashMap<>();
  private final Map<Long, Long> locationEvents = new LinkedHashMap<>();
  private long nextRegion;
  private long clockBase;
  private boolean clockSet;
  private long firstTicks = -1;
  private long lastTicks;

  public Otf2Exporter(Trace trace) {
    this.trace = trace;
    this.defs = trace.definitions();
  }

  /** OTF2 events written per location (= stream id) by the last {@link #write}, in stream order. */
  public Map<Long, Long> locationEvents() {
    return locationEvents;
  }

  /** Writes the archive into {@code dir}, which must not exist or be empty. */
  public void write(Path dir) throws IOException {
    Otf2Archive archive = new Otf2Archive(dir);
    // Every thread with events is a location, virtual threads on their carriers' streams too.
    List<Integer> streams = trace.eventStreamIds();
    defineTeams(streams);
    Map<Integer, Otf2Events.Location> locations = new HashMap<>();
    for (int i = 0; i < streams.size(); i++) {
      int s = streams.get(i);
      ThreadDef t = defs.thread(s);
      long team = t != null && t.pool() != 0 ? teams.getOrDefault(t.pool(), -1L) : -1L;
      locations.put(
          s,
          new Otf2Events.Location(
              s,
              i,
              t == null ? s : t.javaId(),
              team,
              new ChunkedFile(archive.eventFile(s), Otf2Archive.EVENT_CHUNK_BYTES)));
    }
    nextRegion = defineRegions();
    Otf2Events events = new Otf2Events(defs, new Refs());
    EventCursor c = trace.events();
    while (c.next()) {
      Otf2Events.Location l = locations.get(c.stream());
      if (l != null) {
        events.event(l, c);
        lastTicks = Math.max(lastTicks, l.lastTime);
      }
    }
    for (int s : streams) {
      Otf2Events.Location l = locations.get(s);
      events.finish(l);
      l.file.close();
      archive.writeLocalDefinitions(s);
      locationEvents.put((long) s, l.file.events());
    }
    defineSystem(streams);
    long first = Math.max(firstTicks, 0);
    out.clockProperties(TICKS_PER_SECOND, first, Math.max(0, lastTicks - first));
    long count = out.write(archive.globalDefinitionsFile(), Otf2Archive.DEF_CHUNK_BYTES);
    ProcessDef p = defs.process();
    archive.writeAnchor(
        streams.size(),
        count,
        p == null ? "" : p.host(),
        "weft export",
        "Weft trace " + trace.directory().getFileName(),
        defs.traceId());
  }

  /** Strings, system tree, the JVM and its threads: written after the events (event counts). */
  private void defineSystem(List<Integer> streams) {
    ProcessDef p = defs.process();
    out.systemTreeNode(0, p == null || p.host().isEmpty() ? "host" : p.host(), "node", -1);
    String jvm =
        p == null
            ? "JVM"
            : (p.mainClass().isEmpty() ? "JVM" : p.mainClass()) + " (pid " + p.pid() + ")";
    out.locationGroup(0, jvm, 0);
    for (int s : streams) {
      ThreadDef t = defs.thread(s);
      out.location(s, t == null ? "stream-" + s : t.name(), locationEvents.get((long) s), 0);
    }
  }

  /**
   * Groups and communicators: the thread contingent (all threads, Pthread paradigm) and one thread
   * team per pool plus one for tasks outside pools (OpenMP paradigm, which is how OTF2 readers show
   * fork/join and tasks).
   */
  private void defineTeams(List<Integer> streams) {
    long[] all = new long[streams.size()];
    long[] indices = new long[streams.size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = streams.get(i);
      indices[i] = i;
    }
    int pthread = Otf2Definitions.PARADIGM_PTHREAD;
    int openmp = Otf2Definitions.PARADIGM_OPENMP;
    out.group(0, "threads", Otf2Definitions.GROUP_COMM_LOCATIONS, pthread, all);
    out.group(1, "all threads", Otf2Definitions.GROUP_COMM_GROUP, pthread, indices);
    out.comm(0, "JVM threads", 1);
    out.group(2, "threads", Otf2Definitions.GROUP_COMM_LOCATIONS, openmp, all);
    out.group(3, "all threads", Otf2Definitions.GROUP_COMM_GROUP, openmp, indices);
    out.comm(1, "all threads", 3);
    teams.put(0, 1L);
    long next = 2;
    Map<Integer, String> poolNames = PoolNames.of(defs);
    for (PoolDef pool : defs.pools()) {
      // Any thread may create a pool's tasks, and a task names its creator by its index in the
      // team: so every team has all threads; the workers are those with team begin/end events.
      out.comm(next, poolNames.get(pool.id()), 3);
      teams.put(pool.id(), next);
      next++;
    }
  }

  /** Every Weft region, and region 0 for unknown call sites; returns the next free region id. */
  private long defineRegions() {
    long max = 0;
    out.region(
        0,
        "unknown call site",
        "unknown call site",
        "unknown",
        "",
        0,
        0,
        Otf2Definitions.ROLE_FUNCTION,
        Otf2Definitions.PARADIGM_MEASUREMENT_SYSTEM);
    for (RegionDef r : defs.regions()) {
      if (r.id() == 0) {
        continue;
      }
      String canonical =
          r.declaringClass().isEmpty()
              ? r.name()
              : r.declaringClass() + (r.method().isEmpty() ? "" : "." + r.method());
      out.region(
          r.id(),
          r.name(),
          canonical + " @ " + r.location(),
          r.kind().id(),
          r.file(),
          r.firstLine(),
          Math.max(r.firstLine(), r.lastLine()),
          role(r.kind()),
          paradigm(r.kind()));
      max = Math.max(max, r.id());
    }
    return max + 1;
  }

  private long taskRegion(RegionDef site) {
    String name = TaskNames.taskName(site);
    Long id = taskRegionsByName.get(name);
    if (id == null) {
      id = nextRegion++;
      taskRegionsByName.put(name, id);
      out.region(
          id,
          name,
          name + (site == null ? "" : " @ " + site.location()),
          "task",
          site == null ? "" : site.file(),
          site == null ? 0 : site.firstLine(),
          site == null ? 0 : Math.max(site.firstLine(), site.lastLine()),
          Otf2Definitions.ROLE_TASK,
          Otf2Definitions.PARADIGM_OPENMP);
    }
    return id;
  }

  private static int role(ConstructKind kind) {
    switch (kind) {
      case USER_REGION:
        return Otf2Definitions.ROLE_CODE;
      case TRACED_METHOD:
        return Otf2Definitions.ROLE_FUNCTION;
      case PARALLEL_STREAM:
      case FORK_JOIN_POOL:
      case EXECUTOR:
        return Otf2Definitions.ROLE_PARALLEL;
      case FORK_JOIN_TASK:
      case COMPLETABLE_FUTURE:
        return Otf2Definitions.ROLE_TASK_CREATE;
      case FUTURE_GET:
      case AWAIT_TERMINATION:
        return Otf2Definitions.ROLE_TASK_WAIT;
      case THREAD_JOIN:
        return Otf2Definitions.ROLE_THREAD_WAIT;
      case THREAD_START:
        return Otf2Definitions.ROLE_THREAD_CREATE;
      case MONITOR:
      case SYNCHRONIZED_METHOD:
      case REENTRANT_LOCK:
      case READ_WRITE_LOCK:
      case STAMPED_LOCK:
      case SEMAPHORE:
        return Otf2Definitions.ROLE_CRITICAL;
      case CYCLIC_BARRIER:
      case PHASER:
      case COUNT_DOWN_LATCH:
        return Otf2Definitions.ROLE_BARRIER;
      default:
        return Otf2Definitions.ROLE_WRAPPER; // waits, sleeps, parks, spins: library calls
    }
  }

  private static int paradigm(ConstructKind kind) {
    switch (kind) {
      case USER_REGION:
      case TRACED_METHOD:
        return Otf2Definitions.PARADIGM_USER;
      case PARALLEL_STREAM:
      case FORK_JOIN_POOL:
      case EXECUTOR:
      case FORK_JOIN_TASK:
      case COMPLETABLE_FUTURE:
      case FUTURE_GET:
      case AWAIT_TERMINATION:
      case CYCLIC_BARRIER:
      case PHASER:
      case COUNT_DOWN_LATCH:
        return Otf2Definitions.PARADIGM_OPENMP;
      default:
        return Otf2Definitions.PARADIGM_PTHREAD;
    }
  }

  /** Ids for what events refer to. */
  private final class Refs implements Otf2Events.Refs {
    @Override
    public long region(int weftRegion) {
      return weftRegion > 0 && defs.region(weftRegion) != null ? weftRegion : 0;
    }

    @Override
    public long taskRegion(RegionDef site) {
      return Otf2Exporter.this.taskRegion(site);
    }

    @Override
    public long team(int pool) {
      return teams.getOrDefault(pool, 1L);
    }

    @Override
    public long contingent() {
      return 0;
    }

    @Override
    public long lock(long object) {
      return locks.computeIfAbsent(object, k -> (long) locks.size());
    }

    @Override
    public long ticks(long traceTime) {
      if (!clockSet) {
        ClockDef clock = defs.clock();
        clockBase =
            clock != null && clock.toEpochNanos(traceTime) > 0
                ? clock.epochNanos() - clock.nanoBase()
                : -traceTime;
        clockSet = true;
        firstTicks = traceTime + clockBase;
      }
      return Math.max(0, traceTime + clockBase);
    }
  }
}
