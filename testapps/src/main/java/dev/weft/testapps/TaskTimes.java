package dev.weft.testapps;

/**
 * When one task submitted to a pool was submitted, began and ended, and which thread ran it.
 *
 * <p>The submitter writes {@link #submitted()} before submitting; the worker writes {@link
 * #began()} and {@link #ended()}; readers look only after the task's future completed, which orders
 * the writes.
 */
public final class TaskTimes {
  private final String name;
  private long submit;
  private long begin;
  private long end;
  private String thread;

  /** Times for the task called {@code name} (a key of {@link TruthKinds#TASK_QUEUE_WAIT_NS}). */
  public TaskTimes(String name) {
    this.name = name;
  }

  /** Called by the submitter just before submitting. */
  public void submitted() {
    submit = System.nanoTime();
  }

  /** Called by the worker as the task's body starts; returns the time. */
  public long began() {
    thread = Thread.currentThread().getName();
    begin = System.nanoTime();
    return begin;
  }

  /** Called by the worker as the task's body ends; returns the time. */
  public long ended() {
    end = System.nanoTime();
    return end;
  }

  /** The task's name. */
  public String name() {
    return name;
  }

  /** Submission time. */
  public long submit() {
    return submit;
  }

  /** Begin time. */
  public long begin() {
    return begin;
  }

  /** End time. */
  public long end() {
    return end;
  }

  /** Submission to begin. */
  public long queueWait() {
    return begin - submit;
  }

  /** Begin to end. */
  public long runTime() {
    return end - begin;
  }

  /** The thread that ran the task. */
  public String thread() {
    return thread;
  }
}
