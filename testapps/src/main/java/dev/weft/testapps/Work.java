package dev.weft.testapps;

/**
 * The work a scenario's threads do: by default {@link Thread#sleep} (deterministic on a busy 2-core
 * machine, and counted as execution by the analyzer), with {@code --cpu} a spin loop of a fixed
 * number of iterations per nominal millisecond.
 *
 * <p>Both kinds return a checksum that depends only on the amount of work and the seed, never on
 * timing, so a scenario's result is identical across runs. Scenarios combine checksums with
 * addition, which does not depend on the order in which threads finish.
 */
public final class Work {
  /**
   * Spin iterations per nominal millisecond: one xorshift step costs about 2.5 ns once compiled on
   * the reference machine (2 cores, JDK 17). Other machines take longer or shorter; the truth line
   * reports the times actually measured.
   */
  public static final long DEFAULT_SPIN_PER_MS = 400_000L;

  /** Keeps the warm-up's result alive so that the JIT cannot drop the loop. */
  @SuppressWarnings("unused")
  private static volatile long warmUpSink;

  private final boolean cpu;
  private final long spinPerMs;

  /** Work that sleeps, or spins {@code spinPerMs} iterations per ms when {@code cpu} is true. */
  public Work(boolean cpu, long spinPerMs) {
    this.cpu = cpu;
    this.spinPerMs = spinPerMs;
  }

  /** Work configured by the run's options. */
  public static Work of(Options options) {
    return new Work(options.cpu(), options.longValue(Options.SPIN_PER_MS.name()));
  }

  /** True when work spins instead of sleeping. */
  public boolean cpu() {
    return cpu;
  }

  /**
   * Works for {@code ms} nominal milliseconds.
   *
   * @param seed distinguishes pieces of work, so the checksum says which work was done
   * @return the piece's checksum, a function of {@code ms} and {@code seed} only
   */
  public long run(long ms, long seed) throws InterruptedException {
    if (cpu) {
      return spin(ms * spinPerMs, seed);
    }
    Thread.sleep(ms);
    return mix(seed * 31 + ms);
  }

  /** {@link #run}, with the time it took added to the truth's busy time. */
  public long runBusy(long ms, long seed, Truth truth) throws InterruptedException {
    long t0 = System.nanoTime();
    long checksum = run(ms, seed);
    truth.add(TruthKinds.BUSY_NS, System.nanoTime() - t0);
    return checksum;
  }

  /**
   * Runs the spin loop briefly so that it is compiled before measured work starts; without this the
   * first pieces of {@code --cpu} work would run interpreted and take far longer than the others.
   */
  public void warmUp() {
    if (cpu) {
      long sum = 0;
      for (int i = 0; i < 40; i++) {
        sum += spin(200_000, i);
      }
      warmUpSink = sum;
    }
  }

  /** A busy loop of {@code iterations} xorshift steps; the result defeats dead-code elimination. */
  static long spin(long iterations, long seed) {
    long x = mix(seed) | 1;
    // An int-counted inner loop: the JIT compiles it far better than a long-counted one.
    while (iterations > 0) {
      int n = (int) Math.min(iterations, 1 << 20);
      for (int i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
      }
      iterations -= n;
    }
    return x;
  }

  /** A 64-bit mixing function (the finaliser of SplitMix64). */
  public static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** Folds a checksum into 53 bits, so it survives as an exact JSON number in any reader. */
  public static long jsonSafe(long checksum) {
    return checksum & ((1L << 53) - 1);
  }
}
