package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Coarsening a chain's timed pieces: which kind a merged piece takes, and what is left out. */
class PathPiecesTest {
  private final CallPathTree tree = new CallPathTree();

  /**
   * A hand-over of 10 ns followed by two stretches of work of 6 ns each (at two call paths, so they
   * stay two pieces until coarsened) is mostly work: merged, the piece is work, at the two paths'
   * common ancestor.
   */
  @Test
  void aMergedPieceTakesTheKindWithTheMostTime() {
    int outer = tree.child(CallPathTree.ROOT, 1);
    int left = tree.child(outer, 2);
    int right = tree.child(outer, 3);
    PathPieces p = new PathPieces();
    p.add(CriticalPath.key(0, outer), CriticalPath.HAND_OVER, 0, 10);
    p.add(CriticalPath.key(0, left), CriticalPath.WORK, 10, 16);
    p.add(CriticalPath.key(0, right), CriticalPath.WORK, 16, 22);
    p.coarsen(1, tree.ancestry());
    assertEquals(1, p.size);
    assertEquals(CriticalPath.WORK, p.kinds[0]);
    assertEquals(CriticalPath.key(0, outer), p.keys[0]);
    assertEquals(0, p.starts[0]);
    assertEquals(22, p.ends[0]);
    assertEquals(0, p.truncated);
  }

  /**
   * Threads 0 and 1 take turns six times, three pieces a turn: with room for four pieces, each of
   * the four newest turns becomes one piece and the two oldest are left out, counted as two pieces
   * and their time.
   */
  @Test
  void moreTurnsBetweenThreadsThanRoomLeavesOutTheOldestTurnsWhole() {
    int a = tree.child(CallPathTree.ROOT, 1);
    int b = tree.child(CallPathTree.ROOT, 2);
    PathPieces p = new PathPieces();
    long t = 0;
    for (int turn = 0; turn < 6; turn++) {
      int th = turn % 2;
      p.add(CriticalPath.key(th, CallPathTree.ROOT), CriticalPath.HAND_OVER, t, t + 1);
      p.add(CriticalPath.key(th, a), CriticalPath.WORK, t + 1, t + 5);
      p.add(CriticalPath.key(th, b), CriticalPath.WAIT, t + 5, t + 10 + turn);
      t += 10 + turn;
    }
    p.coarsen(4, tree.ancestry());
    assertEquals(4, p.size);
    assertEquals(2, p.truncated);
    assertEquals(10 + 11, p.truncatedNs);
    long start = 21;
    for (int i = 0; i < 4; i++) {
      int turn = i + 2;
      assertEquals(turn % 2, CriticalPath.thread(p.keys[i]), "turn " + turn);
      assertEquals(CallPathTree.ROOT, CriticalPath.node(p.keys[i]), "turn " + turn);
      assertEquals(CriticalPath.WAIT, p.kinds[i], "turn " + turn);
      assertEquals(start, p.starts[i], "turn " + turn);
      assertEquals(start + 10 + turn, p.ends[i], "turn " + turn);
      start += 10 + turn;
    }
  }
}
