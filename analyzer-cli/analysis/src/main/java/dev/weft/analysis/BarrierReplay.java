package dev.weft.analysis;

import static dev.weft.analysis.CallPathTree.ROOT;
import static dev.weft.analysis.ThreadState.F_BARRIER;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.ObjectDef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The replay of barriers, latches and phasers (BARRIER_ENTER..EXIT): per barrier object, the
 * generations that still have threads inside, their arrivals (the last one releases the others) and
 * each member's busy time since its previous departure, settled into the call site's per-instance
 * imbalance when a generation is complete. Emits {@link BarrierArrival} to {@code onBarrierWait}.
 */
final class BarrierReplay {
  private final Replay r;
  private final ThreadReplay frames;
  private final Occurrences out;
  private final BarrierArrival arrival = new BarrierArrival();
  private final LongIntMap barrierObjects = new LongIntMap(16);
  private final List<BarrierObject> barriers = new ArrayList<>();
  private final LongIntMap barrierStatBySite = new LongIntMap(16);

  /** The next handle for a generation slot's chain on the critical path (one per slot, reused). */
  private int nextChainHandle;

  BarrierReplay(Replay replay) {
    this.r = replay;
    this.frames = replay.frames;
    this.out = replay.occurrences;
  }

  /** Live state of one barrier object: its generations that still have threads inside. */
  private static final class BarrierObject {
    final int stat;
    final int parties;
    int count;
    long[] generation = new long[2];
    int[] arrivals = new int[2];
    int[] departures = new int[2];
    long[] latest = new long[2];
    boolean[] noted = new boolean[2];
    boolean[] released = new boolean[2];

    /** Per generation: the critical path's handle for the chain at its latest arrival, or -1. */
    int[] chainHandle = {-1, -1};

    int[] lastThread = new int[2];
    int[] lastNode = new int[2];

    /** Per generation: the arrived threads and their busy ns since their previous departure. */
    int[][] team = new int[2][];

    long[][] teamBusy = new long[2][];
    long[][] teamArrival = new long[2][];

    BarrierObject(int stat, int parties) {
      this.stat = stat;
      this.parties = parties;
    }

    int find(long gen) {
      for (int i = 0; i < count; i++) {
        if (generation[i] == gen) {
          return i;
        }
      }
      return -1;
    }

    int add(long gen) {
      if (count == generation.length) {
        int cap = count * 2;
        generation = Arrays.copyOf(generation, cap);
        arrivals = Arrays.copyOf(arrivals, cap);
        departures = Arrays.copyOf(departures, cap);
        latest = Arrays.copyOf(latest, cap);
        noted = Arrays.copyOf(noted, cap);
        released = Arrays.copyOf(released, cap);
        chainHandle = Arrays.copyOf(chainHandle, cap);
        Arrays.fill(chainHandle, count, cap, -1);
        lastThread = Arrays.copyOf(lastThread, cap);
        lastNode = Arrays.copyOf(lastNode, cap);
        team = Arrays.copyOf(team, cap);
        teamBusy = Arrays.copyOf(teamBusy, cap);
        teamArrival = Arrays.copyOf(teamArrival, cap);
      }
      if (team[count] == null) {
        team[count] = new int[4];
        teamBusy[count] = new long[4];
        teamArrival[count] = new long[4];
      }
      int i = count++;
      generation[i] = gen;
      arrivals[i] = 0;
      departures[i] = 0;
      latest[i] = Long.MIN_VALUE;
      noted[i] = false;
      released[i] = false;
      lastThread[i] = -1;
      return i;
    }

    /**
     * Forgets generation {@code i}; returns the handle of its chain, which the critical path may
     * then drop.
     */
    int remove(int i) {
      int last = --count;
      int freedHandle = chainHandle[i];
      generation[i] = generation[last];
      arrivals[i] = arrivals[last];
      departures[i] = departures[last];
      latest[i] = latest[last];
      noted[i] = noted[last];
      released[i] = released[last];
      chainHandle[i] = chainHandle[last];
      chainHandle[last] = freedHandle;
      lastThread[i] = lastThread[last];
      lastNode[i] = lastNode[last];
      int[] freedTeam = team[i];
      long[] freedBusy = teamBusy[i];
      long[] freedArrival = teamArrival[i];
      team[i] = team[last];
      teamBusy[i] = teamBusy[last];
      teamArrival[i] = teamArrival[last];
      team[last] = freedTeam;
      teamBusy[last] = freedBusy;
      teamArrival[last] = freedArrival;
      return freedHandle;
    }

    /** Records an arrival (the {@code arrivals[g]}-th, already counted): busy ns, arrival time. */
    void arrive(int g, int thread, long busy, long t) {
      int k = arrivals[g] - 1;
      if (k >= team[g].length) {
        int cap = team[g].length * 2;
        team[g] = Arrays.copyOf(team[g], cap);
        teamBusy[g] = Arrays.copyOf(teamBusy[g], cap);
        teamArrival[g] = Arrays.copyOf(teamArrival[g], cap);
      }
      team[g][k] = thread;
      teamBusy[g][k] = busy;
      teamArrival[g][k] = t;
    }

    /** Makes {@code th}'s arrival at {@code t} generation {@code g}'s latest, if it is. */
    void arrivedLast(int g, ThreadState th, long t, CriticalPathFeed critical) {
      if (t >= latest[g]) {
        latest[g] = t;
        critical.barrierArrivedLast(chainHandle[g], th.index);
        lastThread[g] = th.index;
        lastNode[g] = th.currentNode();
      }
    }

    // Per thread, for settle: busy time summed over its arrivals in the generation, and its last
    // arrival; valid where stamp holds the settle's number.
    private long[] threadBusy = new long[0];
    private long[] threadLastArrival = new long[0];
    private int[] stamp = new int[0];
    private int settles;

    /**
     * Hands a completed generation's team to the region's per-instance imbalance. A thread may
     * arrive more than once in a generation (a count-down, then an await; a latch that the same
     * workers count down again and again, as tasks finish): it is one member, its busy times added
     * up. A member loses at most what it waited from its last arrival for the generation's last:
     * work done before the generation's common start (setup between two barrier objects of the call
     * site) is no time the barrier made it lose, and no member loses more than the generation
     * lasted for it.
     */
    void settle(int g, RegionBusy region) {
      int n = arrivals[g];
      int threads = region.threads();
      if (stamp.length < threads) {
        threadBusy = new long[threads];
        threadLastArrival = new long[threads];
        stamp = new int[threads];
      }
      int s = ++settles;
      long max = 0;
      for (int k = 0; k < n; k++) {
        int th = team[g][k];
        if (stamp[th] != s) {
          stamp[th] = s;
          threadBusy[th] = 0;
          threadLastArrival[th] = Long.MIN_VALUE;
        }
        threadBusy[th] += teamBusy[g][k];
        threadLastArrival[th] = Math.max(threadLastArrival[th], teamArrival[g][k]);
        max = Math.max(max, threadBusy[th]);
      }
      for (int k = 0; k < n; k++) {
        int th = team[g][k];
        if (stamp[th] == s) {
          stamp[th] = -s; // counted once
          long waited = Math.max(0, latest[g] - threadLastArrival[th]);
          region.lost[th] += Math.min(max - threadBusy[th], waited);
        }
      }
    }
  }

  void enter(ThreadState th, long t, int region, long obj, long gen) {
    int node = r.tree.child(th.currentNode(), region);
    int b = barrierObjects.get(obj);
    if (b < 0) {
      b = barriers.size();
      ObjectDef def = r.defs().object(obj);
      int parties =
          def != null && def.kind() == ConstructKind.CYCLIC_BARRIER
              ? Math.max(0, def.parties())
              : 0;
      barriers.add(new BarrierObject(barrierStat(region, node), parties));
      barrierObjects.put(obj, b);
    }
    BarrierObject bo = barriers.get(b);
    int g = bo.find(gen);
    RegionBusy stat = r.regionStats.get(bo.stat);
    if (g < 0) {
      g = bo.add(gen);
      if (bo.chainHandle[g] < 0) {
        bo.chainHandle[g] = nextChainHandle++;
      }
      stat.instances++;
    }
    bo.arrivals[g]++;
    bo.arrivedLast(g, th, t, r.critical);
    // Busy time since the previous departure (or thread start): execution in between.
    long busy = th.execTotal - stat.snapshot[th.index];
    stat.busy[th.index] += busy;
    stat.snapshot[th.index] = th.execTotal;
    stat.member[th.index] = true;
    bo.arrive(g, th.index, busy, t);
    int i = frames.push(th, F_BARRIER, node, region, t, obj, -1);
    th.aux[i] = gen;
  }

  private int barrierStat(int site, int node) {
    int s = barrierStatBySite.get(site);
    if (s < 0) {
      s = r.regionStats.size();
      RegionBusy busy = new RegionBusy(true, site, node, r.threads.length);
      busy.snapshot = new long[r.threads.length];
      r.regionStats.add(busy);
      barrierStatBySite.put(site, s);
    }
    return s;
  }

  /** A BARRIER_EXIT that matches no arrival of this thread. */
  void departureOnly(ThreadState th, long t, long obj, long gen, int outcome) {
    int b = barrierObjects.get(obj);
    int g = b >= 0 ? barriers.get(b).find(gen) : -1;
    if ((outcome & BarrierOutcome.LAST) != 0) {
      // A releasing arrival recorded as a departure only (e.g. the count-down that opens a latch).
      if (g >= 0) {
        BarrierObject bo = barriers.get(b);
        bo.arrivedLast(g, th, t, r.critical);
        bo.released[g] = true;
      }
    } else {
      r.counters.barrierExitWithoutArrival++;
    }
  }

  /**
   * Ends the stay in frame {@code i} at {@code t}: departed (its BARRIER_EXIT, with {@code
   * outcome}) or not (the thread ended, or the trace, while it waited).
   */
  void finish(ThreadState th, int i, long t, int outcome, boolean departed) {
    long obj = th.obj[i];
    long gen = th.aux[i];
    BarrierObject bo = barriers.get(barrierObjects.get(obj));
    int g = bo.find(gen);
    BarrierArrival a = arrival;
    a.reset(r.cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    a.object = obj;
    a.generation = gen;
    a.latestArrival = g >= 0 ? bo.latest[g] : th.start[i];
    if (!departed
        && (g < 0 || !bo.released[g])
        && (bo.parties == 0 || g < 0 || bo.arrivals[g] < bo.parties)) {
      // Still waiting where its wait ends (the run ended, or the departure is missing) and nothing
      // says the generation was complete: the thread was waiting for an arrival that had not come,
      // so the whole wait is waiting for the last arrival, none of it release latency.
      a.latestArrival = t;
    }
    a.outcome = outcome;
    a.departed = departed;
    a.lastArriver = g >= 0 ? bo.lastThread[g] : -1;
    a.lastArriverNode = g >= 0 ? bo.lastNode[g] : ROOT;
    out.barrierWait(a);
    if (r.waits != null) {
      int last = a.lastArriver != th.index ? a.lastArriver : -1;
      String construct = r.kindOf(obj, th.region[i]).id();
      r.waits.end("barrier", construct, th.index, th.start[i], t, obj, last);
    }
    if (departed && g >= 0 && bo.lastThread[g] >= 0 && bo.lastThread[g] != th.index) {
      r.critical.barrierHandOver(th.index, th.node[i], bo.chainHandle[g], bo.latest[g], t);
    } else {
      r.critical.waited(th.index, th.node[i], t);
    }
    frames.rest(th, a, th.stat[i]);
    if (g >= 0) {
      if (departed) {
        bo.released[g] = true;
      }
      if (departed && bo.parties > 0 && bo.arrivals[g] < bo.parties && !bo.noted[g]) {
        bo.noted[g] = true;
        r.counters.partialGenerations++;
      }
      if (++bo.departures[g] >= bo.arrivals[g]) {
        bo.settle(g, r.regionStats.get(bo.stat));
        r.critical.barrierDropped(bo.remove(g));
      }
    }
    r.regionStats.get(bo.stat).snapshot[th.index] = th.execTotal;
  }
}
