package dev.weft.trace.pairing;

import static dev.weft.trace.EventKind.BARRIER_ENTER;
import static dev.weft.trace.EventKind.BARRIER_EXIT;
import static dev.weft.trace.EventKind.ENTER;
import static dev.weft.trace.EventKind.EXIT;
import static dev.weft.trace.EventKind.FORK;
import static dev.weft.trace.EventKind.HELP_ENTER;
import static dev.weft.trace.EventKind.HELP_EXIT;
import static dev.weft.trace.EventKind.JOIN;
import static dev.weft.trace.EventKind.JOIN_WAIT_ENTER;
import static dev.weft.trace.EventKind.JOIN_WAIT_EXIT;
import static dev.weft.trace.EventKind.LOCK_ACQUIRED;
import static dev.weft.trace.EventKind.LOCK_RELEASED;
import static dev.weft.trace.EventKind.LOCK_REQUEST;
import static dev.weft.trace.EventKind.MEASUREMENT_ON;
import static dev.weft.trace.EventKind.TASK_BEGIN;
import static dev.weft.trace.EventKind.TASK_CREATE;
import static dev.weft.trace.EventKind.TASK_END;
import static dev.weft.trace.EventKind.THREAD_BEGIN;
import static dev.weft.trace.EventKind.THREAD_END;
import static dev.weft.trace.EventKind.VTHREAD_MOUNT;
import static dev.weft.trace.EventKind.VTHREAD_UNMOUNT;
import static dev.weft.trace.EventKind.WAIT_ENTER;
import static dev.weft.trace.EventKind.WAIT_EXIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.LockFlags;
import dev.weft.trace.WaitKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pairing grammar on the per-thread sequences its readers used to disagree on (FORMAT.md,
 * "Pairing", says where and how): what pairs with what, what closes with an outer construct, what
 * matches nothing, and what is still open at the end.
 */
class PairingScenariosTest {
  private static final long LOCK = 10;
  private static final long BARRIER = 20;

  private final List<Event> events = new ArrayList<>();

  private PairingScenariosTest ev(long t, EventKind k, long... fields) {
    events.add(new Event(k, t, 1, fields));
    return this;
  }

  private List<String> pairs() {
    return PairLog.of(events);
  }

  @Test
  void nestedWaitsCloseInnermostFirst() {
    ev(0, THREAD_BEGIN).ev(1, ENTER, 1).ev(2, WAIT_ENTER, 2, WaitKind.OBJECT_WAIT);
    ev(3, WAIT_ENTER, 3, WaitKind.PARK).ev(4, WAIT_EXIT, 3).ev(5, WAIT_EXIT, 2).ev(6, EXIT, 1);
    assertEquals(List.of("wait 3 3..4", "wait 2 2..5", "region 1 1..6"), pairs());
  }

  @Test
  void reenteredLockIsOneHoldFromTheFirstAcquisitionToTheLastRelease() {
    ev(0, THREAD_BEGIN).ev(1, LOCK_REQUEST, 5, LOCK).ev(2, LOCK_ACQUIRED, LOCK, 0);
    ev(3, LOCK_ACQUIRED, LOCK, LockFlags.REENTRANT).ev(4, LOCK_RELEASED, LOCK);
    ev(5, LOCK_RELEASED, LOCK);
    assertEquals(List.of("lock_wait 10 1..2", "hold 10 2..5"), pairs());
  }

  @Test
  void reacquisitionAfterAWaitAddsNoHold() {
    // Timeline, OTF2 and Chrome counted it as a second hold, left open to the thread's end.
    ev(0, THREAD_BEGIN).ev(1, LOCK_ACQUIRED, LOCK, 0).ev(2, WAIT_ENTER, 5, WaitKind.OBJECT_WAIT);
    ev(3, WAIT_EXIT, 5).ev(4, LOCK_REQUEST, 5, LOCK);
    ev(5, LOCK_ACQUIRED, LOCK, LockFlags.AFTER_WAIT).ev(6, LOCK_RELEASED, LOCK);
    assertEquals(List.of("wait 5 2..3", "lock_wait 10 4..5", "hold 10 1..6"), pairs());
  }

  @Test
  void failedAndAbortedTryLocksEndTheWaitAndHoldNothing() {
    ev(0, THREAD_BEGIN).ev(1, LOCK_REQUEST, 5, LOCK).ev(2, LOCK_ACQUIRED, LOCK, LockFlags.FAILED);
    ev(3, LOCK_ACQUIRED, LOCK, LockFlags.ABORTED).ev(4, LOCK_RELEASED, LOCK);
    assertEquals(List.of("lock_wait 10 1..2", "unmatched lock_released@4"), pairs());
  }

  @Test
  void taskBegunOnAnotherThreadPairsWhereItRuns() {
    ev(0, THREAD_BEGIN).ev(1, TASK_CREATE, 1, 7, 0).ev(2, TASK_BEGIN, 8).ev(3, TASK_BEGIN, 9);
    ev(4, TASK_END, 9).ev(5, TASK_END, 8).ev(6, TASK_END, 7);
    assertEquals(List.of("task 9 3..4", "task 8 2..5", "unmatched task_end@6"), pairs());
  }

  @Test
  void cutStreamClosesWhatItCanAndLeavesTheRestOpen() {
    // No thread_begin: the stream starts inside region 1 and ends inside region 3.
    ev(1, EXIT, 1).ev(2, ENTER, 2).ev(3, EXIT, 2).ev(4, ENTER, 3).ev(5, WAIT_ENTER, 4, 1);
    assertEquals(
        List.of("unmatched exit@1", "region 2 2..3", "open wait 4 5..", "open region 3 4.."),
        pairs());
  }

  @Test
  void exitOfAnOuterConstructClosesWhatIsOpenInsideIt() {
    ev(0, THREAD_BEGIN).ev(1, ENTER, 1).ev(2, FORK, 2, 0, 2).ev(3, JOIN_WAIT_ENTER, 3, 0);
    ev(4, HELP_ENTER, 3).ev(5, EXIT, 1).ev(6, JOIN, 2, 0).ev(7, HELP_EXIT, 3);
    assertEquals(
        List.of(
            "help 3 4..5 inside",
            "join_wait 3 3..5 inside",
            "parallel 2 2..5 inside",
            "region 1 1..5",
            "unmatched join@6",
            "unmatched help_exit@7"),
        pairs());
  }

  @Test
  void eventsAfterThreadEndOpenAfresh() {
    ev(0, THREAD_BEGIN).ev(1, ENTER, 1).ev(2, LOCK_ACQUIRED, LOCK, 0).ev(3, THREAD_END);
    ev(4, EXIT, 1).ev(5, ENTER, 2);
    assertEquals(List.of("ended region 1 1..3", "unmatched exit@4", "open region 2 5.."), pairs());
  }

  @Test
  void barrierExitMustNameTheSameGeneration() {
    // Timeline, OTF2 and Chrome paired by the barrier alone.
    ev(0, THREAD_BEGIN).ev(1, BARRIER_ENTER, 4, BARRIER, 1).ev(2, BARRIER_EXIT, 4, BARRIER, 2, 0);
    ev(3, BARRIER_EXIT, 4, BARRIER, 1, 1);
    assertEquals(List.of("unmatched barrier_exit@2", "barrier_wait 20/1 1..3"), pairs());
  }

  @Test
  void virtualThreadEndWhileMountedDoesNotEndTheCarrier() {
    // A carrier's stream with a virtual thread that has no logical stream of its own (before 1.3).
    ev(0, THREAD_BEGIN).ev(1, ENTER, 1).ev(2, VTHREAD_MOUNT, 42).ev(3, THREAD_BEGIN);
    ev(4, THREAD_END).ev(5, VTHREAD_UNMOUNT, 42).ev(6, VTHREAD_MOUNT, 43);
    ev(7, VTHREAD_MOUNT, 44).ev(8, VTHREAD_UNMOUNT, 43).ev(9, EXIT, 1);
    assertEquals(List.of("mount 44@7 over 43", "unmount 43@8 of 44", "region 1 1..9"), pairs());
  }

  @Test
  void virtualThreadPairsAcrossItsCarriers() {
    // The logical stream as Trace.events() gives it: carriers 1 and 2 ran it in turn.
    events.add(new Event(THREAD_BEGIN, 0, 1, new long[0]));
    events.add(new Event(ENTER, 1, 1, new long[] {1}));
    events.add(new Event(WAIT_ENTER, 2, 1, new long[] {2, WaitKind.PARK}));
    events.add(new Event(WAIT_EXIT, 5, 2, new long[] {2}));
    events.add(new Event(EXIT, 6, 2, new long[] {1}));
    assertEquals(List.of("wait 2 2..5", "region 1 1..6"), pairs());
  }

  @Test
  void waitExitNamingAnotherSiteClosesTheInnermostWait() {
    ev(0, THREAD_BEGIN).ev(1, ENTER, 1).ev(2, JOIN_WAIT_ENTER, 6, 0).ev(3, JOIN_WAIT_EXIT, 7);
    ev(4, EXIT, 2).ev(5, EXIT, 1);
    assertEquals(List.of("join_wait 6 2..3", "unmatched exit@4", "region 1 1..5"), pairs());
  }

  @Test
  void measurementGapLeavesWhatWasOpenUncertain() {
    PairMatcher m = new PairMatcher(new PairMatcher.Listener() {});
    PairLog.ListCursor c =
        new PairLog.ListCursor(
            List.of(
                new Event(THREAD_BEGIN, 0, 1, new long[0]),
                new Event(ENTER, 1, 1, new long[] {1}),
                new Event(ENTER, 2, 1, new long[] {2}),
                new Event(MEASUREMENT_ON, 3, 1, new long[0]),
                new Event(ENTER, 4, 1, new long[] {3})));
    while (c.next()) {
      m.event(c);
      if (c.kind() == MEASUREMENT_ON) {
        m.pastUnknown();
      }
    }
    assertEquals(3, m.depth());
    assertEquals(2, m.uncertainDepth());
    assertEquals(false, m.pastKnown());
  }
}
