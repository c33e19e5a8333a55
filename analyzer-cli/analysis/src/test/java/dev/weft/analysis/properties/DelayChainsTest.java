package dev.weft.analysis.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The split of charged waits along chains, and the bound on the history kept. */
class DelayChainsTest {
  private static final int A = 0;
  private static final int B = 1;
  private static final int C = 2;
  private static final int D = 3;

  /** Long-term ns by root thread. */
  private final long[] longTerm = new long[4];

  private final DelayChains.LongTerm sink = (node, thread, ns, kind) -> longTerm[thread] += ns;

  /**
   * B waits for A five times (0..10, 20..30, … 80..90) with room for four stretches: the oldest two
   * are dropped at the fifth. C's wait for B over 0..100 finds the three left (30 long-term, A's)
   * and charges B the other 70, 30 of which reach into the dropped history and are counted.
   */
  @Test
  void aWaitReachingIntoDroppedHistoryIsChargedShortTermAndCounted() {
    DelayChains chains = new DelayChains(sink, 4);
    for (int i = 0; i < 5; i++) {
      assertEquals(10, chains.charge(DelayChains.LOCK, B, A, 5, i * 20L, i * 20L + 10));
    }
    assertEquals(70, chains.charge(DelayChains.BARRIER, C, B, 7, 0, 100));
    assertEquals(30, longTerm[A]);
    assertEquals(1, chains.unresolvedWaits());
    assertEquals(30, chains.unresolvedNs());
  }

  /**
   * A chain of four: C waited for B over 0..100 while B waited for A over 20..60; D's wait for C
   * over 50..150 finds, in C's history, 50..60 rooted at A and 60..100 at B, and is C's own after
   * that. Every part of every wait is charged once.
   */
  @Test
  void aChainIsResolvedToItsRootsThroughTheWaitersHistory() {
    DelayChains chains = new DelayChains(sink);
    assertEquals(40, chains.charge(DelayChains.JOIN, B, A, 1, 20, 60));
    assertEquals(60, chains.charge(DelayChains.CONDITION, C, B, 2, 0, 100));
    assertEquals(40, longTerm[A]);
    assertEquals(50, chains.charge(DelayChains.BARRIER, D, C, 3, 50, 150));
    assertEquals(50, longTerm[A]);
    assertEquals(40, longTerm[B]);
    assertEquals(0, longTerm[C]);
    assertEquals(0, chains.unresolvedWaits());
  }
}
