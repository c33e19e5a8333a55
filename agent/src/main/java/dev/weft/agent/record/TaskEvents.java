package dev.weft.agent.record;

import dev.weft.trace.StreamWriter;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Delayed;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Parallel regions and tasks: FORK and JOIN of a pool, TASK_CREATE, TASK_BEGIN, TASK_END and
 * TASK_SUMMARY, join waits (JOIN_WAIT_ENTER, JOIN_WAIT_EXIT) and fork-join helping (HELP_ENTER,
 * HELP_EXIT). Tasks are named by identity hash codes ({@link IdentityIds}), a thread joined by its
 * Java id, pools by {@link ObjectDefinitions#poolId}.
 *
 * <p>With {@code tasks=aggregate} fork-join tasks are not recorded one by one: a thread's busy time
 * in them is summarised ({@link TaskSummaries}), and a join inside a summarised task is recorded
 * from the park that blocks it ({@link #joinBlockedEnter}).
 */
final class TaskEvents {
  private final EventPath path;
  private final ObjectDefinitions objects;
  private final TaskSummaries summaries;
  private final boolean aggregateForkJoin;

  TaskEvents(EventPath path, ObjectDefinitions objects, TaskSummaries summaries) {
    this.path = path;
    this.objects = objects;
    this.summaries = summaries;
    this.aggregateForkJoin = summaries.aggregate;
  }

  /** What a join wait names: a thread by its Java id, a task or future by its identity. */
  private static long targetId(Object target) {
    return target instanceof Thread ? ((Thread) target).getId() : IdentityIds.of(target);
  }

  void fork(int region, Object pool, int parallelism) {
    forkAt(System.nanoTime(), region, pool, parallelism);
  }

  /** {@link #fork} at time {@code t}, for regions begun in running frames (RunningFrames). */
  void forkAt(long t, int region, Object pool, int parallelism) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        int poolId = objects.poolId(pool);
        w.fork(t, region, poolId, parallelism);
        summaries.forked(poolId, region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void join(int region, Object pool) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        int poolId = objects.poolId(pool);
        w.join(System.nanoTime(), region, poolId);
        summaries.joined(poolId, region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void taskCreate(int region, Object task, Object pool) {
    if (aggregateForkJoin && task instanceof ForkJoinTask) {
      return; // summarised where it runs
    }
    int scheduler = objects.virtualScheduler();
    if (scheduler != 0 && pool != null && scheduler == PoolObjects.idOf(pool)) {
      return; // a virtual thread's run: its mount is what the trace shows
    }
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        int poolId = objects.poolId(pool);
        if (poolId == 0 || poolId != objects.virtualScheduler()) {
          w.taskCreate(System.nanoTime(), region, IdentityIds.of(task), poolId);
        }
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * A task queued to run when due: a task due later is created at {@code delayedRegion} (a {@code
   * delayed_task} construct), so that its wait until then is not read as a wait in the queue.
   */
  void taskScheduled(int region, int delayedRegion, Object task, Object pool) {
    boolean later = task instanceof Delayed && ((Delayed) task).getDelay(TimeUnit.NANOSECONDS) > 0;
    taskCreate(later ? delayedRegion : region, task, pool);
  }

  void taskBegin(Object task) {
    ThreadState s = path.state();
    if (s.carrier) {
      return; // the scheduler running a virtual thread: its mount is what the trace shows
    }
    if (aggregateForkJoin && task instanceof ForkJoinTask) {
      aggregatedBegin(s);
      return;
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        long t;
        boolean ranAfterAll = false;
        if (anyMaybeRunAfterAll && !(task instanceof ForkJoinTask)) {
          // Withdrawn after a handler that queued it after all: created again where it begins
          // (its run counted, its origin lost), if the withdrawal came first.
          synchronized (maybeRunAfterAll) {
            t = System.nanoTime();
            ranAfterAll = maybeRunAfterAll.remove(task) != null;
          }
        } else {
          t = System.nanoTime();
        }
        if (ranAfterAll) {
          w.taskCreate(t, 0, IdentityIds.of(task), 0);
        }
        w.taskBegin(t, IdentityIds.of(task));
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * A task its executor gave up before it ran: TASK_BEGIN and TASK_END at one time on this thread,
   * so that it is neither queued nor in flight from then on (a TASK_CREATE without them counts as
   * queued to the end of the run).
   */
  void taskWithdrawn(Object task) {
    if (task == null) {
      return;
    }
    ThreadState s = path.state();
    if (s.carrier) {
      return;
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        long t = System.nanoTime();
        long id = IdentityIds.of(task);
        w.taskBegin(t, id);
        w.taskEnd(t, id);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * Tasks withdrawn after a rejection handler of the program's own that a worker may run after all
   * (the handler queued them, and a worker took them before the queue was looked at). Weak keys:
   * the tasks that never run are let go with them. Its monitor orders a withdrawal's time against a
   * begin's: whichever comes second in the trace sees what the first did.
   */
  private final Map<Object, Boolean> maybeRunAfterAll = new WeakHashMap<>();

  private volatile boolean anyMaybeRunAfterAll;

  /**
   * {@code executor}'s rejection handler is done with {@code task}. The JDK's own policies are
   * woven where they act; after a handler of the program's own (HikariCP's drops the task), the
   * task is given up unless the queue holds it (the handler queued it after all).
   */
  void taskRejected(Object executor, Object task) {
    if (!(executor instanceof ThreadPoolExecutor) || task == null) {
      return;
    }
    ThreadPoolExecutor e = (ThreadPoolExecutor) executor;
    RejectedExecutionHandler h = e.getRejectedExecutionHandler();
    if (h instanceof ThreadPoolExecutor.AbortPolicy
        || h instanceof ThreadPoolExecutor.DiscardPolicy
        || h instanceof ThreadPoolExecutor.DiscardOldestPolicy
        || h instanceof ThreadPoolExecutor.CallerRunsPolicy) {
      return;
    }
    if (!e.getQueue().contains(task)) {
      synchronized (maybeRunAfterAll) {
        maybeRunAfterAll.put(task, Boolean.TRUE);
        anyMaybeRunAfterAll = true;
        taskWithdrawn(task);
      }
    }
  }

  void taskEnd(Object task) {
    ThreadState s = path.state();
    if (s.carrier) {
      return; // the scheduler running a virtual thread: its mount is what the trace shows
    }
    if (aggregateForkJoin && task instanceof ForkJoinTask) {
      aggregatedEnd(s);
      return;
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.taskEnd(System.nanoTime(), IdentityIds.of(task));
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void taskSummary(int region, Object pool, long count, long durationNanos) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        int poolId = objects.poolId(pool);
        w.taskSummary(System.nanoTime(), region, poolId, count, durationNanos);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void joinWaitEnter(int region, Object target) {
    joinWaitEnter(region, target, false, 0);
  }

  /** {@link #joinWaitEnter} at time {@code t}, for waits in running frames (RunningFrames). */
  void joinWaitEnterAt(long t, int region, Object target) {
    joinWaitEnter(region, target, true, t);
  }

  private void joinWaitEnter(int region, Object target, boolean timed, long t) {
    if (aggregateForkJoin && Thread.currentThread() instanceof ForkJoinWorkerThread) {
      return; // a worker's application code runs inside summarised tasks (cheaper than the next)
    }
    ThreadState s = path.state();
    if (s.aggDepth > 0) {
      return; // a join inside a summarised task: its blocked part is recorded by joinBlocked*
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.joinWaitEnter(timed ? t : System.nanoTime(), region, targetId(target));
        s.callSiteJoins++;
        s.joinObject = target;
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void joinWaitExit(int region) {
    if (aggregateForkJoin && Thread.currentThread() instanceof ForkJoinWorkerThread) {
      return;
    }
    ThreadState s = path.state();
    if (s.aggDepth > 0) {
      return;
    }
    if (s.callSiteJoins > 0) {
      s.callSiteJoins--;
    }
    s.joinObject = null;
    writeJoinWaitExit(s, region);
  }

  /** Whether this thread's innermost open join wait, recorded at a call site, is for {@code o}. */
  boolean joinOpenAtCallSite(Object o) {
    return path.state().joinObject == o;
  }

  void helpEnter(int region) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.helpEnter(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void helpExit(int region) {
    ThreadState s = path.state();
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.helpExit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  private void writeJoinWaitExit(ThreadState s, int region) {
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        w.joinWaitExit(System.nanoTime(), region);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  // ---- aggregated fork-join tasks

  /**
   * A fork-join task begins (aggregated mode): the outermost one on the thread starts a busy
   * interval; nested ones (run while joining, or inline) are counted in it.
   */
  private static void aggregatedBegin(ThreadState s) {
    if (s.busy) {
      return;
    }
    if (s.aggDepth++ == 0) {
      s.aggStart = System.nanoTime();
      s.aggCount = 0;
    }
    s.aggCount++;
  }

  /** A fork-join task ends (aggregated mode): the outermost one writes the thread's summary. */
  private void aggregatedEnd(ThreadState s) {
    if (s.busy || s.aggDepth == 0 || --s.aggDepth > 0) {
      return;
    }
    s.aggBlocked = false;
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        summaries.summarise(s, w);
      } finally {
        s.writing.busy = false;
      }
    }
  }

  void joinBlockedEnter(int region, Object task) {
    ThreadState s = path.state();
    if (aggregateForkJoin ? s.aggDepth == 0 || s.aggBlocked : parkedJoinIgnored(s)) {
      return;
    }
    StreamWriter w = path.begin(s); // aggregated: writes the summary up to now
    if (w != null) {
      try {
        w.joinWaitEnter(System.nanoTime(), region, IdentityIds.of(task));
        if (aggregateForkJoin) {
          s.aggBlocked = true;
        } else {
          s.parkedJoin = true;
        }
      } finally {
        s.writing.busy = false;
      }
    }
  }

  /**
   * Full mode: a fork-join join that no application call site recorded (a method reference such as
   * {@code left::join}, or a join inside JDK code) still blocks the thread; the park inside {@code
   * awaitDone} is recorded as its join wait. Ignored when the call site recorded the join.
   */
  private static boolean parkedJoinIgnored(ThreadState s) {
    return s.callSiteJoins > 0 || s.parkedJoin || s.virtual;
  }

  void joinBlockedExit(int region) {
    ThreadState s = path.state();
    if (!aggregateForkJoin) {
      if (s.parkedJoin) {
        s.parkedJoin = false;
        writeJoinWaitExit(s, region);
      }
      return;
    }
    if (!s.aggBlocked) {
      return;
    }
    StreamWriter w = path.begin(s);
    if (w != null) {
      try {
        long now = System.nanoTime();
        w.joinWaitExit(now, region);
        s.aggStart = now; // busy again from here
      } finally {
        s.aggBlocked = false;
        s.writing.busy = false;
      }
    } else {
      s.aggBlocked = false;
    }
  }
}
