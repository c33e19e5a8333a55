package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The critical path fed on a thread of its own: the same chains as fed inline, over many batches; a
 * failure on its thread reaches the replay at {@link CriticalPathFeed#finish} without blocking the
 * replay first; a closed feed lets its thread go.
 */
class CriticalPathFeedTest {
  /** Operations enough for several rounds of every batch. */
  private static final int ROUNDS =
      CriticalPathFeed.BATCHES * CriticalPathFeed.BATCH_LONGS; // 2 to 4 longs per round's op

  @Test
  void onItsOwnThreadGivesTheSameChainsAsInline() {
    CallPathTree tree = new CallPathTree();
    CriticalPath direct = new CriticalPath(new boolean[3], tree);
    CriticalPathFeed inline = CriticalPathFeed.inline(direct);
    CriticalPathFeed threaded = CriticalPathFeed.onItsOwnThread(new boolean[3], tree);
    int[] nodes = new int[16];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = tree.child(i == 0 ? CallPathTree.ROOT : nodes[i / 2], i);
    }
    for (CriticalPathFeed f : new CriticalPathFeed[] {inline, threaded}) {
      f.threadBegan(0, 100, CallPathTree.ROOT, 0);
      f.threadCreated(0, 101, nodes[1], 1);
      f.threadBegan(1, 101, CallPathTree.ROOT, 2);
      f.threadCreated(0, 102, nodes[2], 3);
      f.threadBegan(2, 102, CallPathTree.ROOT, 4);
    }
    long t = 10;
    for (int round = 0; round < ROUNDS; round++) {
      int th = round % 3;
      int other = (round + 1) % 3;
      int node = nodes[round % nodes.length];
      // Each round: one thread works, releases a lock the next one waited for; now and then a
      // task's creation and begin, and a join on a task that ends first.
      for (CriticalPathFeed f : new CriticalPathFeed[] {inline, threaded}) {
        f.work(th, node, t + 5);
        f.waiting(other, node, t + 5);
        f.lockReleased(0, th, t + 6);
        f.lockHandOver(other, node, 0, th, t + 6, t + 8);
        if (round % 97 == 0) {
          f.taskCreated(round % 4, th);
          f.joinEntered(th, 1, 5000 + round);
          f.taskBegun(other, node, round % 4, true, t + 8, t + 9);
          f.completed(other, t + 10, 5000 + round, false);
          f.joinEnded(th, 1, node, t + 8, t + 11);
        }
      }
      t += 12;
    }
    // The recording ends with every thread in a wait, one of them released during it: they are
    // closed unweighed.
    long[] before = new long[3];
    for (CriticalPathFeed f : new CriticalPathFeed[] {inline, threaded}) {
      f.work(0, nodes[0], t + 1);
      f.lockReleased(0, 0, t + 1);
      for (int th = 0; th < 3; th++) {
        f.waiting(th, nodes[th], t + 5);
        if (f == inline) {
          before[th] = direct.weight(th);
        }
      }
      f.recordingEnded();
      f.waited(0, nodes[0], t + 5);
      f.lockHandOver(1, nodes[1], 0, 0, t + 1, t + 5);
      f.notifiedWaitEnded(2, 9, Long.MIN_VALUE, nodes[2], t + 5);
    }
    CriticalPath a = inline.finish();
    CriticalPath b = threaded.finish();
    assertEquals(a.pathEnd(), b.pathEnd());
    for (int th = 0; th < 3; th++) {
      assertEquals(before[th], a.weight(th), "thread " + th + "'s last wait is not weighed");
      assertEquals(a.weight(th), b.weight(th), "thread " + th);
    }
    for (int th = 0; th < 3; th++) {
      Map<Long, Long> expected = a.breakdown(th);
      assertFalse(expected.isEmpty());
      assertEquals(expected, b.breakdown(th), "thread " + th);
      PathPieces pa = a.pieces(th);
      PathPieces pb = b.pieces(th);
      assertEquals(pa.size, pb.size);
      for (int i = 0; i < pa.size; i++) {
        assertEquals(pa.keys[i], pb.keys[i]);
        assertEquals(pa.starts[i], pb.starts[i]);
        assertEquals(pa.ends[i], pb.ends[i]);
      }
    }
  }

  @Test
  void aFailureOnItsThreadIsThrownAtTheEndAndNeverBlocksTheReplay() {
    CallPathTree tree = new CallPathTree();
    CriticalPathFeed feed = CriticalPathFeed.onItsOwnThread(new boolean[2], tree);
    feed.work(7, CallPathTree.ROOT, 1); // thread 7 of 2: fails on the critical path's thread
    assertThrows(
        ArrayIndexOutOfBoundsException.class,
        () ->
            assertTimeoutPreemptively(
                () -> {
                  for (int i = 0; i < ROUNDS; i++) { // many batches after the failure: they drain
                    feed.work(0, CallPathTree.ROOT, 2 + i);
                  }
                  feed.finish();
                }));
  }

  @Test
  void aClosedFeedLetsItsThreadGo() {
    CriticalPathFeed feed = CriticalPathFeed.onItsOwnThread(new boolean[1], new CallPathTree());
    feed.work(0, CallPathTree.ROOT, 1);
    assertTrue(feed.threadAlive());
    assertTimeoutPreemptively(feed::close);
    assertFalse(feed.threadAlive());
    // What was closed has no result: never a critical path that missed operations.
    assertThrows(IllegalStateException.class, feed::finish);
  }

  private static void assertTimeoutPreemptively(Runnable r) {
    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), r::run);
  }
}
