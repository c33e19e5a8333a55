package dev.weft.analysis;

import java.util.ArrayList;
import java.util.List;

/** Turns the replay's counters into notes: what could not be attributed, and why. */
final class Notes {
  private Notes() {}

  static List<String> fromCounters(Replay.Counters c) {
    List<String> n = new ArrayList<>();
    add(n, c.eventsAfterThreadEnd, "events recorded after their thread's THREAD_END were ignored");
    add(
        n,
        c.exitWithoutEnter,
        "region exits had no recorded enter (entered before the trace started): not attributed to"
            + " that region");
    add(
        n,
        c.joinWithoutFork,
        "JOINs had no recorded FORK (forked before the trace started): not counted as region"
            + " instances");
    add(
        n,
        c.taskBeginWithoutCreate,
        "tasks began without a recorded TASK_CREATE (submitted before the trace started or by an"
            + " untraced thread): no queue wait attributed; call path '(task created before the"
            + " trace)'");
    add(
        n,
        c.taskEndWithoutBegin,
        "TASK_ENDs had no recorded TASK_BEGIN (tasks running when the trace started): their time"
            + " before the end counts as execution of the thread");
    add(
        n,
        c.taskIdReused,
        "task ids were created again while still live: the earlier task was taken as ended");
    add(
        n,
        c.joinWaitExitWithoutEnter,
        "join-wait exits had no recorded enter (waits in progress when the trace started): not"
            + " attributed");
    add(
        n,
        c.barrierExitWithoutArrival,
        "barrier departures had no recorded arrival (generation partly before the trace started):"
            + " those waits are not attributed");
    add(
        n,
        c.partialGenerations,
        "barrier generations had fewer recorded arrivals than the barrier's parties (arrivals"
            + " before the trace or by untraced threads): waiting_for_last may be too small there");
    add(
        n,
        c.lockReleaseWithoutAcquire,
        "lock releases had no recorded acquisition (held when the trace started, or acquired"
            + " where it was not recorded, such as through a method reference in a class loaded"
            + " before an attach): a waiter counts as contended only when its own request was"
            + " recorded");
    add(
        n,
        c.lockAcquiredWhileHeld,
        "acquisitions found the lock recorded as held by another thread (a release is missing):"
            + " the holder was replaced");
    add(
        n,
        c.waitExitWithoutEnter,
        "wait exits had no recorded enter (in progress when the trace started): not attributed");
    add(
        n,
        c.spinExitWithoutEnter,
        "spin exits had no recorded enter (in progress when the trace started): not attributed");
    add(
        n,
        c.helpExitWithoutEnter,
        "help exits had no recorded enter (in progress when the trace started): not attributed");
    add(
        n,
        c.openFramesAtEnd,
        "regions, tasks or waits were still open when the trace was closed: counted up to its"
            + " end");
    add(
        n,
        c.tasksStillQueued,
        "tasks were still queued at the end of the run: their queue wait counts up to it");
    add(
        n,
        c.delayedTasks,
        "tasks ran after a delay they were scheduled with: their wait until then was on purpose"
            + " and is not pool queue wait (nor work in flight for their pool before they began)");
    add(
        n,
        c.delayedTasksNotRun,
        "tasks scheduled with a delay never ran (cancelled, or not yet due at the end of the"
            + " run): not counted as queued");
    add(
        n,
        c.eventsWithoutThread,
        "events belonged to a stream without a thread definition: not analysed");
    add(
        n,
        c.summaryTasks,
        "short tasks were recorded only in TASK_SUMMARY records (aggregated mode): their time is"
            + " execution at the summary's region, taken out of the worker's idle time");
    add(
        n,
        c.measurementOff,
        "times measurement was switched off: activity while it was off is unknown and counts as"
            + " execution");
    add(
        n,
        c.virtualThreadRecords,
        "virtual-thread mount/unmount records: a carrier's time running a virtual thread is"
            + " the carrier's execution at "
            + CallPathTree.RUNNING_VIRTUAL_THREADS_LABEL
            + ", besides the virtual thread's own time (see carrier_utilisation)");
    return n;
  }

  /** Adds "{@code count what}" when the count is not 0. */
  static void add(List<String> notes, long count, String what) {
    if (count > 0) {
      notes.add(count + " " + what);
    }
  }
}
