package dev.weft.analysis;

/**
 * A task leaving its pool's queue: TASK_CREATE on the submitting thread to its first TASK_BEGIN.
 */
public final class TaskStart {
  int creator;
  int node;
  int pool;
  String poolName;
  long created;
  long begun;
  boolean stillQueued;

  TaskStart() {}

  /** The submitting thread. */
  public int creator() {
    return creator;
  }

  /** The creation call path: the creator's path at TASK_CREATE (not the task's own frame). */
  public int node() {
    return node;
  }

  /** The pool's index in this analysis, or -1 when the task names no pool. */
  public int pool() {
    return pool;
  }

  /** The pool's name, or "(no pool)". */
  public String poolName() {
    return poolName;
  }

  public long created() {
    return created;
  }

  /** The first TASK_BEGIN, or the window end for a task that never began. */
  public long begun() {
    return begun;
  }

  /** True when the task had not begun by the end of the window. */
  public boolean stillQueued() {
    return stillQueued;
  }

  public long latency() {
    return Math.max(0, begun - created);
  }
}
