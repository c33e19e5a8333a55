package dev.weft.analysis;

import static dev.weft.analysis.CallPathTree.ROOT;
import static dev.weft.analysis.ThreadState.F_FORK;
import static dev.weft.analysis.ThreadState.F_JOIN;
import static dev.weft.analysis.ThreadState.F_TASK;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.RegionDef;

/**
 * The replay of parallel regions and tasks: FORK..JOIN (a region instance, its team and its
 * per-instance imbalance), TASK_CREATE (queued in a pool), TASK_BEGIN..END (a task's frame, named
 * by user code: {@link TaskNames}), task summaries, and JOIN_WAIT_ENTER..EXIT (a thread waiting for
 * tasks or threads to end). Emits {@link TaskStart} to {@code onTaskStart} and {@link
 * JoinWaitSegment} to {@code onJoinWait}.
 */
final class TaskReplay {
  private final Replay r;
  private final ThreadReplay frames;
  private final Occurrences out;
  private final TaskTable tasks = new TaskTable();
  private final InstanceTable instances;
  private final TaskStart taskStart = new TaskStart();
  private final JoinWaitSegment joinSegment = new JoinWaitSegment();
  private final LongIntMap parallelStatByRegion = new LongIntMap(16);
  private final LongIntMap userRegions = new LongIntMap(64);
  private final int[] teamScratch;
  private final long[] busyScratch;

  TaskReplay(Replay replay) {
    this.r = replay;
    this.frames = replay.frames;
    this.out = replay.occurrences;
    this.instances = replay.instances;
    this.teamScratch = new int[replay.threads.length];
    this.busyScratch = new long[replay.threads.length];
  }

  // ---- parallel regions -------------------------------------------------------------------------

  void fork(ThreadState th, long t, int region, int poolId) {
    int poolSlot = r.pools.slot(poolId);
    int node = r.tree.child(th.currentNode(), region);
    int stat = parallelStat(region, node);
    r.regionStats.get(stat).instances++;
    int inst = instances.open(stat, node, th.index, poolSlot, t);
    System.arraycopy(
        r.regionStats.get(stat).busy, 0, instances.busyAtFork[inst], 0, r.threads.length);
    r.pools.change(poolSlot, t, 1, 0);
    frames.pushIn(th, F_FORK, node, region, inst, stat, t, region, -1);
  }

  void finishFork(ThreadState th, int i, long t) {
    ThreadState[] threads = r.threads;
    PoolTable pools = r.pools;
    int inst = th.inst[i];
    instances.open[inst] = false;
    int p = instances.pool[inst];
    pools.change(p, t, -1, 0);
    RegionBusy stat = r.regionStats.get(instances.stat[inst]);
    // The instance's team: every thread that worked in it, and the pool's workers alive during it
    // (idle ones could have taken work). A master that only waited for the join is not in it: its
    // wait is join_wait, not work it lacked.
    long[] before = instances.busyAtFork[inst];
    int count = 0;
    for (int k = 0; k < threads.length; k++) {
      if (stat.busy[k] > before[k]) {
        teamScratch[count] = k;
        busyScratch[count++] = stat.busy[k] - before[k];
        before[k] = Long.MIN_VALUE;
      }
    }
    if (p >= 0) {
      long forkTime = instances.fork[inst];
      for (int k = 0; k < pools.workerCount[p]; k++) {
        ThreadState w = threads[pools.workers[p][k]];
        if (w.started
            && w.begin <= t
            && (!w.ended || w.end >= forkTime)
            && before[w.index] != Long.MIN_VALUE) {
          teamScratch[count] = w.index;
          busyScratch[count++] = 0;
          before[w.index] = Long.MIN_VALUE;
        }
      }
    }
    for (int k = 0; k < count; k++) {
      stat.member[teamScratch[k]] = true;
    }
    stat.settleInstance(teamScratch, busyScratch, count);
    instances.release(inst);
  }

  private int parallelStat(int region, int node) {
    int s = parallelStatByRegion.get(region);
    if (s < 0) {
      s = r.regionStats.size();
      r.regionStats.add(new RegionBusy(false, region, node, r.threads.length));
      parallelStatByRegion.put(region, s);
    }
    return s;
  }

  /**
   * The node of a call made at region {@code r} under {@code parent}: the parent itself when it is
   * the same call site (ForkJoinPool.invoke records a FORK, then its JOIN_WAIT and TASK_CREATE at
   * one call site: one frame, not three).
   */
  private int childOrSame(int parent, int region) {
    CallPathTree tree = r.tree;
    return parent != ROOT && tree.realRegion(parent) == region
        ? parent
        : tree.child(parent, region);
  }

  // ---- tasks ------------------------------------------------------------------------------------

  /**
   * The call path of a task created at region {@code r}: the creator's path plus the task's frame,
   * named by user code ({@link TaskNames}): the creation site when it is the user's, else the
   * nearest user code on the creator's path (the enclosing task or region). A fork recorded inside
   * the JDK ({@code ForkJoinPool$WorkQueue.push}) is thus named by the task that forked it, and a
   * recursive task's subtasks share its frame.
   */
  private int taskNode(int parent, int region) {
    return r.tree.task(parent, userSite(parent, region));
  }

  private int userSite(int parent, int region) {
    if (userCode(region)) {
      return region;
    }
    CallPathTree tree = r.tree;
    for (int n = parent; n > ROOT; n = tree.parent(n)) {
      int site = tree.taskSite(n);
      if (site != Integer.MIN_VALUE) {
        return site;
      }
      int real = tree.realRegion(n);
      if (real != Integer.MIN_VALUE && userCode(real)) {
        return real;
      }
    }
    return region; // no user code open: the creation site is all there is to name it by
  }

  private boolean userCode(int region) {
    int user = userRegions.get(region);
    if (user < 0) {
      user = TaskNames.isUserCode(r.defs().region(region)) ? 1 : 0;
      userRegions.put(region, user);
    }
    return user == 1;
  }

  void create(ThreadState th, long t, int region, long task, int poolId) {
    int poolSlot = r.pools.slot(poolId);
    int node = taskNode(th.currentNode(), region);
    int inst = th.currentInstance();
    int old = tasks.get(task);
    if (old >= 0 && tasks.begun[old]) {
      // Forked again while it runs: a CountedCompleter (the JDK's parallel streams) forks itself
      // and goes on with the other half of its work. That run goes on; this is its next one.
      tasks.detach(old);
    } else if (old >= 0) {
      r.counters.taskIdReused++;
      endTaskRecord(old, t);
    }
    // Where it was created: the creator's path, with the creation site when it is user code.
    int at = userCode(region) ? childOrSame(th.currentNode(), region) : th.currentNode();
    int slot = tasks.add(task, node, at, poolSlot, th.index, inst, t);
    r.critical.taskCreated(slot, th.index);
    if (inst >= 0) {
      instances.liveTasks[inst]++;
      instances.retain(inst);
    }
    if (delayedCreation(region)) {
      tasks.delayed[slot] = true; // in flight from its begin on; until then the pool waits for it
      r.pools.changeDelayed(poolSlot, t, 1);
    } else {
      r.pools.change(poolSlot, t, 0, 1);
    }
  }

  /** Whether region {@code region} creates tasks that are due later ({@code delayed_task}). */
  private boolean delayedCreation(int region) {
    RegionDef d = r.defs().region(region);
    return d != null && d.kind() == ConstructKind.DELAYED_TASK;
  }

  void begin(ThreadState th, long t, long task) {
    int s = tasks.get(task);
    int inst;
    int node;
    if (s < 0) {
      // Created before the trace started (or by an untraced thread): its origin is unknown. It is
      // counted when it ends having run: a begin and end at one time is a task its executor gave
      // up after it had run already (the agent's withdrawal came late), nothing to attribute.
      node = r.tree.unknownTask(th.currentNode());
      s = tasks.add(task, node, node, th.pool, -1, -1, t);
      tasks.begun[s] = true;
      tasks.noCreate[s] = true;
      r.pools.change(th.pool, t, 0, 1);
      inst = -1;
    } else {
      node = tasks.node[s];
      inst = tasks.inst[s];
      if (!tasks.begun[s]) {
        tasks.begun[s] = true;
        if (tasks.delayed[s]) {
          r.pools.changeDelayed(tasks.pool[s], t, -1);
          r.pools.change(tasks.pool[s], t, 0, 1);
        } else {
          startTask(s, t, false);
        }
        // An idle worker (nothing open) waited for this submission.
        boolean idle = th.depth == 0 && th.worker();
        r.critical.taskBegun(th.index, node, s, idle, tasks.created[s], t);
      }
    }
    int stat = inst >= 0 ? instances.stat[inst] : -1;
    int i = frames.pushIn(th, F_TASK, node, -1, inst, stat, t, task, inst);
    th.aux[i] = s;
    if (inst >= 0) {
      instances.markStarted(inst, th.index);
    }
  }

  private void startTask(int s, long t, boolean stillQueued) {
    TaskStart ts = taskStart;
    ts.creator = tasks.creator[s];
    ts.node = tasks.createdAt[s];
    ts.pool = tasks.pool[s];
    ts.poolName = ts.pool >= 0 ? r.pools.name[ts.pool] : "(no pool)";
    ts.created = tasks.created[s];
    ts.begun = t;
    ts.stillQueued = stillQueued;
    if (ts.creator < 0) {
      return;
    }
    out.taskStart(ts);
    if (r.waits != null) {
      r.waits.end("queue", ts.poolName, ts.creator, ts.created, t, 0, -1);
    }
  }

  /** A TASK_END that matches no begun task of this thread. */
  void endWithoutBegin(long t, long task) {
    r.counters.taskEndWithoutBegin++;
    int s = tasks.get(task);
    if (s >= 0) {
      endTaskRecord(s, t);
    }
  }

  void finishTask(ThreadState th, int i, long t) {
    r.critical.completed(th.index, t, th.obj[i], false);
    r.joinCauses.ended(th.index, th.node[i], th.obj[i], t);
    int s = (int) th.aux[i];
    if (tasks.live(s, th.obj[i])) {
      if (tasks.noCreate[s] && t > th.start[i]) {
        r.counters.taskBeginWithoutCreate++;
      }
      if (tasks.delayed[s]) {
        // A run of no time at all is a task its executor gave up (the agent's withdrawal).
        if (t > th.start[i]) {
          r.counters.delayedTasks++;
        } else {
          r.counters.delayedTasksNotRun++;
        }
      }
      endTaskRecord(s, t);
    }
  }

  private void endTaskRecord(int s, long t) {
    if (tasks.begun[s] || !tasks.delayed[s]) {
      r.pools.change(tasks.pool[s], t, 0, -1);
    } else {
      r.pools.changeDelayed(tasks.pool[s], t, -1);
    }
    int inst = tasks.inst[s];
    if (inst >= 0) {
      instances.liveTasks[inst]--;
      if (t > instances.lastTaskEnd[inst]) {
        instances.lastTaskEnd[inst] = t;
      }
      instances.release(inst);
    }
    tasks.remove(s);
  }

  /** At the end of the run: the tasks created and never begun waited in their queue until then. */
  void endStillQueued(long end) {
    tasks.forEachLive(
        s -> {
          if (tasks.begun[s]) {
            return;
          }
          if (tasks.delayed[s]) {
            r.counters.delayedTasksNotRun++;
          } else {
            r.counters.tasksStillQueued++;
            if (tasks.creator[s] >= 0) {
              startTask(s, end, true);
            }
          }
        });
  }

  void summary(ThreadState th, long t, int region, long count, long duration) {
    r.counters.summaryTasks = Replay.saturatedAdd(r.counters.summaryTasks, count);
    if (!th.worker() || th.depth > 0) {
      return; // the summarised tasks ran inside recorded activity: already execution
    }
    th.startingUp = false; // tasks ran in the stretch: it was not start-up alone
    frames.endIdle(th, t, -1);
    // Fields are unsigned: a duration above Long.MAX_VALUE reads as negative here.
    long busy = duration < 0 ? th.pendingIdle : Math.min(duration, th.pendingIdle);
    long fromInFlight = Math.min(busy, th.pendingIdleInFlight);
    th.pendingIdle -= busy;
    th.pendingIdleInFlight -= fromInFlight;
    th.pendingIdleTimer = Math.min(th.pendingIdleTimer, th.pendingIdle - th.pendingIdleInFlight);
    frames.flushIdle(th);
    if (busy > 0) {
      frames.exec(th, r.tree.child(ROOT, region), -1, busy);
      r.critical.work(th.index, r.tree.child(ROOT, region), t);
    }
  }

  // ---- join waits -------------------------------------------------------------------------------

  void joinWaitEnter(ThreadState th, long t, int region, long target) {
    // A join made directly inside another is how a library implements the one the program called
    // (Guava's FluentFuture.get calls its superclass's get): it keeps the program's call path.
    boolean inner = th.depth > 0 && th.kind[th.depth - 1] == F_JOIN;
    int node = inner ? th.currentNode() : childOrSame(th.currentNode(), region);
    int i = frames.push(th, F_JOIN, node, region, t, region, -1);
    r.critical.joinEntered(th.index, i, target);
    r.joinCauses.entered(th.index, i, target);
  }

  /**
   * Charges {@code d} ns up to {@code t} to the join wait in frame {@code top}: the part after the
   * last task of the master's region instance ended is also kept apart.
   */
  void chargeJoin(ThreadState th, int top, long t, long d) {
    int inst = th.inst[top];
    if (inst >= 0
        && instances.master[inst] == th.index
        && instances.liveTasks[inst] == 0
        && instances.lastTaskEnd[inst] != Long.MIN_VALUE) {
      long from = Math.max(t - d, instances.lastTaskEnd[inst]);
      if (t > from) {
        th.aux[top] += t - from;
      }
    }
  }

  void finishJoin(ThreadState th, int i, long t) {
    JoinWaitSegment j = joinSegment;
    j.reset(r.cube, th.index, th.node[i], th.start[i], t, th.accum[i]);
    int inst = th.inst[i];
    j.master = inst >= 0 && instances.master[inst] == th.index;
    j.afterLastTask = Math.min(th.aux[i], th.accum[i]);
    long[] cause = r.joinCauses.joined(th.index, i, th.start[i], t);
    j.causeTime = cause == null ? Long.MIN_VALUE : cause[0];
    j.causer = cause == null ? -1 : (int) cause[1];
    j.causerNode = cause == null ? ROOT : (int) cause[2];
    out.joinWait(j);
    int rk = r.regionKind(th.region[i]);
    if (rk == ConstructKind.THREAD_JOIN.code()) {
      // Thread.join waits on the thread's monitor, which the ending thread takes to notify: the
      // JVM may count a block on entering the join and one on re-entering after the wait.
      th.monitorWaits += 2;
    }
    if (r.waits != null) {
      String construct = rk < 0 ? null : ConstructKind.ofCode(rk).id();
      r.waits.end("join", construct, th.index, th.start[i], t, 0, -1);
    }
    r.critical.joinEnded(th.index, i, th.node[i], th.start[i], t);
    frames.rest(th, j, th.stat[i]);
  }
}
