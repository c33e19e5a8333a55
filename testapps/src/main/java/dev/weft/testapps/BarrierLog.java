package dev.weft.testapps;

import java.util.List;

/**
 * Arrival and departure times of a fixed team at a barrier, per generation, from which the
 * barrier's truth is computed: wait = departure − arrival, of which wait for the last = latest
 * arrival of the generation − own arrival, and release latency = the rest.
 *
 * <p>Each thread writes only its own slots; {@link #report} reads them after the team has been
 * joined, so no synchronisation is needed beyond that join.
 */
public final class BarrierLog {
  private final List<String> threads;
  private final long[][] arrivals;
  private final long[][] departures;
  private final long[] starts;

  /** A log for {@code threads} (by team index) passing {@code generations} generations each. */
  public BarrierLog(List<String> threads, int generations) {
    this.threads = List.copyOf(threads);
    this.arrivals = new long[generations][threads.size()];
    this.departures = new long[generations][threads.size()];
    this.starts = new long[threads.size()];
  }

  /** Records when team member {@code index} started the work before its first arrival. */
  public void start(int index, long nanoTime) {
    starts[index] = nanoTime;
  }

  /** Records team member {@code index}'s arrival at generation {@code generation}. */
  public void arrive(int index, int generation, long nanoTime) {
    arrivals[generation][index] = nanoTime;
  }

  /** Records team member {@code index}'s departure from generation {@code generation}. */
  public void depart(int index, int generation, long nanoTime) {
    departures[generation][index] = nanoTime;
  }

  /**
   * Adds the waits to {@code truth} per thread under the three given kinds.
   *
   * @param waitKind departure − arrival
   * @param forLastKind latest arrival − own arrival
   * @param releaseKind departure − latest arrival, or null not to report it
   */
  public void report(Truth truth, String waitKind, String forLastKind, String releaseKind) {
    reportWaits(truth, waitKind, forLastKind, releaseKind);
  }

  /**
   * Adds, per thread, the waiting for the last arrival it caused ({@link
   * TruthKinds#DELAY_COST_BARRIER_NS}): in every generation, the others' wait for the latest
   * arrival is charged to the thread that arrived latest. Only for barriers the recorder sees.
   */
  public void reportDelayCosts(Truth truth) {
    String kind = TruthKinds.DELAY_COST_BARRIER_NS;
    long[] cost = new long[threads.size()];
    for (int g = 0; g < arrivals.length; g++) {
      int last = 0;
      for (int t = 1; t < threads.size(); t++) {
        if (arrivals[g][t] > arrivals[g][last]) {
          last = t;
        }
      }
      for (int t = 0; t < threads.size(); t++) {
        if (t != last) {
          long w = departures[g][t] - arrivals[g][t];
          cost[last] += Math.max(0, Math.min(w, arrivals[g][last] - arrivals[g][t]));
        }
      }
    }
    for (int t = 0; t < threads.size(); t++) {
      truth.add(kind, threads.get(t), cost[t]);
    }
  }

  /**
   * Adds, per thread, the time it lost to imbalance in {@code region} ({@link
   * TruthKinds#WORK_IMBALANCE_NS}), per generation: busy = arrival − previous departure (the start
   * for the first), and each member loses the busiest's busy time minus its own, at most its wait
   * for the latest arrival.
   */
  public void reportImbalance(Truth truth, String region) {
    for (int t = 0; t < threads.size(); t++) {
      long lost = 0;
      for (int g = 0; g < arrivals.length; g++) {
        long max = 0;
        long latest = Long.MIN_VALUE;
        for (int u = 0; u < threads.size(); u++) {
          max = Math.max(max, busy(g, u));
          latest = Math.max(latest, arrivals[g][u]);
        }
        lost += Math.max(0, Math.min(max - busy(g, t), latest - arrivals[g][t]));
      }
      truth.addGrouped(TruthKinds.WORK_IMBALANCE_NS, region, threads.get(t), lost);
    }
  }

  private long busy(int g, int t) {
    return arrivals[g][t] - (g == 0 ? starts[t] : departures[g - 1][t]);
  }

  private void reportWaits(Truth truth, String waitKind, String forLastKind, String releaseKind) {
    long[] wait = new long[threads.size()];
    long[] forLast = new long[threads.size()];
    for (int g = 0; g < arrivals.length; g++) {
      long latest = Long.MIN_VALUE;
      for (long a : arrivals[g]) {
        latest = Math.max(latest, a);
      }
      for (int t = 0; t < threads.size(); t++) {
        long w = departures[g][t] - arrivals[g][t];
        wait[t] += w;
        // The latest arrival can only precede everyone's departure; clamp measurement jitter.
        forLast[t] += Math.min(w, latest - arrivals[g][t]);
      }
    }
    for (int t = 0; t < threads.size(); t++) {
      truth.add(waitKind, threads.get(t), wait[t]);
      truth.add(forLastKind, threads.get(t), forLast[t]);
      if (releaseKind != null) {
        truth.add(releaseKind, threads.get(t), wait[t] - forLast[t]);
      }
    }
  }
}
