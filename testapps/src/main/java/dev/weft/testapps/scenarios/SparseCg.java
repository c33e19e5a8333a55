package dev.weft.testapps.scenarios;

import dev.weft.testapps.BarrierLog;
import dev.weft.testapps.OptionSpec;
import dev.weft.testapps.Scenario;
import dev.weft.testapps.ScenarioContext;
import dev.weft.testapps.Team;
import dev.weft.testapps.Truth;
import dev.weft.testapps.TruthKinds;
import dev.weft.testapps.UsageException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;

/**
 * Conjugate-gradient iterations on a generated sparse symmetric positive definite matrix (CSR),
 * whose rows have more nonzeros towards the end. The rows are split over {@code --threads} threads,
 * either in equal row blocks ({@code --split rows}) or in blocks of about equal nonzeros ({@code
 * --split nnz}); one {@link CyclicBarrier} separates the phases of each iteration (three meetings
 * per iteration: after the matrix-vector product, after the residual update, after the direction
 * update).
 *
 * <p>By default each thread also sleeps 1 ms per {@code --nnz-per-ms} nonzeros of its block in
 * every iteration, so that its busy time is proportional to its nonzeros on any machine; {@code
 * --cpu} drops the sleep and leaves the real arithmetic only.
 *
 * <p>The result (the residual norm) is bit-identical for every thread count, split and timing: dot
 * products are summed per chunk of {@link #CHUNK} rows, blocks are whole chunks, and every thread
 * adds the chunk sums in chunk order.
 */
public final class SparseCg implements Scenario {
  /** Rows per chunk: the unit of partitioning and of partial sums. */
  public static final int CHUNK = 16;

  /** The region whose per-thread work the load-balance truth describes. */
  public static final String REGION = "cg";

  /** Truth kind: nonzeros of each thread's block. */
  public static final String BLOCK_NNZ = "block_nnz";

  /** Truth kind: rows of each thread's block. */
  public static final String BLOCK_ROWS = "block_rows";

  /** Meetings at the barrier per iteration. */
  public static final int BARRIERS_PER_ITERATION = 3;

  /** Largest number of extra generated nonzeros in a row (the last rows get this many). */
  private static final int MAX_EXTRA = 24;

  @Override
  public String name() {
    return "sparse-cg";
  }

  @Override
  public String summary() {
    return "conjugate gradient on a skewed sparse matrix, rows split by rows or by nonzeros";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.integer("rows", 2000, CHUNK, 10_000_000, "matrix rows"),
        OptionSpec.integer("threads", 4, 1, 64, "threads"),
        OptionSpec.integer("iterations", 20, 1, 100_000, "CG iterations"),
        OptionSpec.choice(
            "split", "rows", List.of("rows", "nnz"), "equal row blocks or balanced nonzeros"),
        OptionSpec.integer(
            "nnz-per-ms", 1000, 1, 1_000_000_000, "simulated cost: 1 ms per this many nonzeros"),
        OptionSpec.integer("seed", 42, 0, Long.MAX_VALUE, "matrix generator seed"));
  }

  @Override
  public Object run(ScenarioContext context) throws Exception {
    int n = context.options().intValue("rows");
    int threads = context.options().intValue("threads");
    int iterations = context.options().intValue("iterations");
    boolean byNnz = context.options().choice("split").equals("nnz");
    long nnzPerMs = context.options().longValue("nnz-per-ms");
    long seed = context.options().longValue("seed");
    boolean simulate = !context.work().cpu();
    Truth truth = context.truth();

    Csr a = Csr.generate(n, seed);
    int chunks = (n + CHUNK - 1) / CHUNK;
    if (threads > chunks) {
      throw new UsageException(
          "option --threads: " + threads + " threads need at least " + threads * CHUNK + " rows");
    }
    int[] firstChunk = byNnz ? a.splitByNnz(threads) : splitByRows(chunks, threads);
    double[] x = new double[n];
    double[] r = new double[n];
    double[] p = new double[n];
    double[] q = new double[n];
    for (int i = 0; i < n; i++) {
      r[i] = 1.0;
      p[i] = 1.0;
    }
    double[] partialPq = new double[chunks];
    double[] partialRr = new double[chunks];
    for (int c = 0; c < chunks; c++) {
      partialRr[c] = chunkDot(r, r, c, n);
    }
    double rr0 = sum(partialRr);
    double[] finalRr = new double[threads];

    List<String> names = Team.names("worker", threads);
    BarrierLog log = new BarrierLog(names, iterations * BARRIERS_PER_ITERATION);
    CyclicBarrier barrier = new CyclicBarrier(threads);
    Team.run(
        names,
        t -> {
          int c0 = firstChunk[t];
          int c1 = firstChunk[t + 1];
          int lo = c0 * CHUNK;
          int hi = Math.min(n, c1 * CHUNK);
          long blockNnz = a.rowStart[hi] - a.rowStart[lo];
          double rr = rr0;
          for (int it = 0; it < iterations; it++) {
            int generation = it * BARRIERS_PER_ITERATION;
            long t0 = System.nanoTime();
            a.multiply(p, q, lo, hi);
            for (int c = c0; c < c1; c++) {
              partialPq[c] = chunkDot(p, q, c, n);
            }
            if (simulate) {
              Thread.sleep((it + 1) * blockNnz / nnzPerMs - it * blockNnz / nnzPerMs);
            }
            long spent = System.nanoTime() - t0;
            meet(barrier, log, t, generation);

            t0 = System.nanoTime();
            double pq = sum(partialPq);
            double alpha = pq == 0 ? 0 : rr / pq;
            for (int i = lo; i < hi; i++) {
              x[i] += alpha * p[i];
              r[i] -= alpha * q[i];
            }
            for (int c = c0; c < c1; c++) {
              partialRr[c] = chunkDot(r, r, c, n);
            }
            spent += System.nanoTime() - t0;
            meet(barrier, log, t, generation + 1);

            t0 = System.nanoTime();
            double rrNew = sum(partialRr);
            double beta = rr == 0 ? 0 : rrNew / rr;
            rr = rrNew;
            for (int i = lo; i < hi; i++) {
              p[i] = r[i] + beta * p[i];
            }
            spent += System.nanoTime() - t0;
            truth.add(TruthKinds.BUSY_NS, spent);
            truth.addRegionBusy(REGION, spent);
            meet(barrier, log, t, generation + 2);
          }
          finalRr[t] = rr;
          truth.add(BLOCK_NNZ, blockNnz);
          truth.add(BLOCK_ROWS, hi - lo);
        },
        truth);
    log.report(
        truth,
        TruthKinds.BARRIER_WAIT_NS,
        TruthKinds.BARRIER_WAIT_FOR_LAST_NS,
        TruthKinds.BARRIER_RELEASE_LATENCY_NS);
    log.reportDelayCosts(truth);
    for (double rr : finalRr) {
      if (Double.doubleToLongBits(rr) != Double.doubleToLongBits(finalRr[0])) {
        throw new IllegalStateException("threads disagree on the residual");
      }
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("residual", Math.sqrt(finalRr[0]));
    result.put("rows", (long) n);
    result.put("nnz", (long) a.rowStart[n]);
    return result;
  }

  private static void meet(CyclicBarrier barrier, BarrierLog log, int t, int generation)
      throws Exception {
    long arrival = System.nanoTime();
    barrier.await();
    long departure = System.nanoTime();
    log.arrive(t, generation, arrival);
    log.depart(t, generation, departure);
  }

  /** First chunk of each thread's block (plus the end), equal numbers of chunks per thread. */
  static int[] splitByRows(int chunks, int threads) {
    int[] first = new int[threads + 1];
    for (int t = 0; t <= threads; t++) {
      first[t] = (int) ((long) t * chunks / threads);
    }
    return first;
  }

  private static double chunkDot(double[] u, double[] v, int chunk, int n) {
    double s = 0;
    for (int i = chunk * CHUNK, end = Math.min(n, i + CHUNK); i < end; i++) {
      s += u[i] * v[i];
    }
    return s;
  }

  private static double sum(double[] partials) {
    double s = 0;
    for (double v : partials) {
      s += v;
    }
    return s;
  }

  /** A sparse matrix in compressed sparse row form. */
  static final class Csr {
    final int n;
    final int[] rowStart;
    final int[] cols;
    final double[] vals;

    private Csr(int n, int[] rowStart, int[] cols, double[] vals) {
      this.n = n;
      this.rowStart = rowStart;
      this.cols = cols;
      this.vals = vals;
    }

    /**
     * A symmetric, strictly diagonally dominant matrix (so positive definite): row {@code i}
     * generates {@code 1 + floor(24·(i/n)^3)} random off-diagonal entries in (−1, −0.1], each
     * mirrored to keep symmetry; duplicates are summed; the diagonal is 1 + the row's absolute sum.
     */
    static Csr generate(int n, long seed) {
      SplittableRandom random = new SplittableRandom(seed);
      int[] own = new int[n];
      int total = 0;
      for (int i = 0; i < n; i++) {
        double x = (double) i / n;
        own[i] = 1 + (int) (MAX_EXTRA * x * x * x);
        total += own[i];
      }
      int[] er = new int[2 * total];
      int[] ec = new int[2 * total];
      double[] ev = new double[2 * total];
      int m = 0;
      for (int i = 0; i < n; i++) {
        for (int e = 0; e < own[i]; e++) {
          int j = random.nextInt(n);
          double v = -(0.1 + 0.9 * random.nextDouble());
          if (j == i) {
            continue;
          }
          er[m] = i;
          ec[m] = j;
          ev[m++] = v;
          er[m] = j;
          ec[m] = i;
          ev[m++] = v;
        }
      }
      // Bucket the entries by row (stable), then sort each row by column and merge duplicates.
      int[] start = new int[n + 1];
      for (int e = 0; e < m; e++) {
        start[er[e] + 1]++;
      }
      for (int i = 0; i < n; i++) {
        start[i + 1] += start[i];
      }
      int[] fill = start.clone();
      int[] bc = new int[m];
      double[] bv = new double[m];
      for (int e = 0; e < m; e++) {
        int at = fill[er[e]]++;
        bc[at] = ec[e];
        bv[at] = ev[e];
      }
      int[] rowStart = new int[n + 1];
      int[] cols = new int[m + n];
      double[] vals = new double[m + n];
      int out = 0;
      for (int i = 0; i < n; i++) {
        sortRow(bc, bv, start[i], start[i + 1]);
        rowStart[i] = out;
        double absSum = 0;
        for (int e = start[i]; e < start[i + 1]; e++) {
          absSum += Math.abs(bv[e]);
        }
        boolean diagonalPlaced = false;
        for (int e = start[i]; e < start[i + 1]; e++) {
          if (!diagonalPlaced && bc[e] > i) {
            cols[out] = i;
            vals[out++] = 1.0 + absSum;
            diagonalPlaced = true;
          }
          if (out > rowStart[i] && cols[out - 1] == bc[e]) {
            vals[out - 1] += bv[e];
          } else {
            cols[out] = bc[e];
            vals[out++] = bv[e];
          }
        }
        if (!diagonalPlaced) {
          cols[out] = i;
          vals[out++] = 1.0 + absSum;
        }
      }
      rowStart[n] = out;
      return new Csr(n, rowStart, Arrays.copyOf(cols, out), Arrays.copyOf(vals, out));
    }

    private static void sortRow(int[] c, double[] v, int from, int to) {
      for (int i = from + 1; i < to; i++) {
        int ci = c[i];
        double vi = v[i];
        int j = i - 1;
        while (j >= from && c[j] > ci) {
          c[j + 1] = c[j];
          v[j + 1] = v[j];
          j--;
        }
        c[j + 1] = ci;
        v[j + 1] = vi;
      }
    }

    /** q[i] = (A·p)[i] for rows [lo, hi). */
    void multiply(double[] p, double[] q, int lo, int hi) {
      for (int i = lo; i < hi; i++) {
        double s = 0;
        for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
          s += vals[k] * p[cols[k]];
        }
        q[i] = s;
      }
    }

    /**
     * First chunk of each thread's block (plus the end), each boundary the chunk boundary nearest
     * to an equal share of the nonzeros.
     */
    int[] splitByNnz(int threads) {
      int chunks = (n + CHUNK - 1) / CHUNK;
      long total = rowStart[n];
      int[] first = new int[threads + 1];
      first[threads] = chunks;
      int c = 0;
      for (int t = 1; t < threads; t++) {
        long target = total * t / threads;
        while (c < chunks && rowStart[Math.min(n, (c + 1) * CHUNK)] <= target) {
          c++;
        }
        // Chunk boundary c is at or before the target, c + 1 after it: take the nearer one.
        long before = target - rowStart[c * CHUNK];
        long after = rowStart[Math.min(n, (c + 1) * CHUNK)] - target;
        int boundary = after < before ? c + 1 : c;
        // Every block gets at least one chunk.
        boundary = Math.max(boundary, first[t - 1] + 1);
        boundary = Math.min(boundary, chunks - (threads - t));
        first[t] = boundary;
      }
      return first;
    }
  }
}
