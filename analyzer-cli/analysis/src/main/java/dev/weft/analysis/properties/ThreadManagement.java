package dev.weft.analysis.properties;

import dev.weft.analysis.IdleTime;
import dev.weft.analysis.JoinWaitSegment;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.WaitSpan;
import dev.weft.trace.WaitKind;
import java.util.LinkedHashMap;
import java.util.Map;

/** Fork start-up and join wind-down of parallel regions, and the starting of threads. */
@PropertyInfo(
    id = "thread_management",
    parent = "time",
    name = "Thread management",
    info =
        "Time spent starting a parallel region's team (fork) and ending it (join), starting"
            + " threads, and pool workers starting and ending",
    description =
        """
        Fork: for every pool worker and every instance of a parallel region, the time from the \
        master's FORK to the worker's first TASK_BEGIN of that instance, as far as the worker was \
        idle then; it is carved out of the worker's idle time and attributed to the region's call \
        path. Join: the time from the last TASK_END of a region instance (no task of it left) to \
        the end of the master's join wait, carved out of the master's [[join_wait]] and attributed \
        to the join's call path. Start: the time a thread spent in Thread.start() (a \
        WAIT_ENTER..WAIT_EXIT of kind thread_start), while the JVM created and started the new \
        thread, at the start's call path. Worker start and end: a pool worker's time from its \
        THREAD_BEGIN to its first task, at (pool worker starting), and from its last task to its \
        THREAD_END, at (pool worker ending), when the JVM counted no park, sleep or wait of the \
        worker in its whole life (its THREAD_JVM_COUNTS record): it was not waiting for work \
        then but starting, ending, or waiting for a core; carved out of its idle time. Causes: \
        fork_ns, join_ns, start_ns, worker_start_ns and worker_exit_ns.\
        """,
    diagnosis =
        """
        High fork time means workers are slow to wake up or tasks are handed out late; high join \
        time means the master learns late that the work is done. Both grow with the number of \
        small parallel regions: make regions coarser or reuse a running team. High start time, \
        or worker start and end time spread over many short-lived workers, means threads are \
        started for short work (a thread per task or request, a pool that starts a worker per \
        task and retires it): run the work on a pool whose workers live on.\
        """)
public final class ThreadManagement extends Property {
  private long fork;
  private long join;
  private long start;
  private long workerStart;
  private long workerExit;

  @Override
  public void onWait(WaitSpan wait) {
    if (wait.waitKind() == WaitKind.THREAD_START) {
      start += wait.claim(this, wait.total());
    }
  }

  @Override
  public void onIdle(IdleTime idle) {
    if (idle.afterFork() > 0) {
      fork += idle.claim(this, idle.forkNode(), idle.afterFork());
    }
    if (idle.workerStart() > 0) {
      workerStart += idle.claim(this, idle.workerNode(), idle.workerStart());
    }
    if (idle.workerExit() > 0) {
      workerExit += idle.claim(this, idle.workerNode(), idle.workerExit());
    }
  }

  @Override
  public void onJoinWait(JoinWaitSegment segment) {
    if (segment.master()) {
      join += segment.claim(this, segment.afterLastTask());
    }
  }

  @Override
  public Map<String, Long> causes() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("fork_ns", fork);
    m.put("join_ns", join);
    m.put("start_ns", start);
    m.put("worker_start_ns", workerStart);
    m.put("worker_exit_ns", workerExit);
    return m;
  }
}
