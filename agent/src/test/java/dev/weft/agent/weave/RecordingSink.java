package dev.weft.agent.weave;

import dev.weft.agent.bridge.WeftSink;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * A sink that writes down the events it gets, as "enter 3", "exit 3", "lockRequest 5 lock"; regions
 * and objects are written with {@link #regionName} and {@link #objectName} (by default their
 * numbers and {@code toString()}). The measurement switches are not events.
 */
final class RecordingSink extends WeftSink {
  final List<String> calls = Collections.synchronizedList(new ArrayList<>());

  /** How a region id is written. */
  IntFunction<String> regionName = String::valueOf;

  /** How an object is written. */
  Function<Object, String> objectName = String::valueOf;

  private void add(String event, Object... parts) {
    StringBuilder b = new StringBuilder(event);
    for (Object p : parts) {
      b.append(' ').append(p);
    }
    calls.add(b.toString());
  }

  private String r(int region) {
    return regionName.apply(region);
  }

  private String o(Object object) {
    return objectName.apply(object);
  }

  @Override
  public void enter(int region) {
    add("enter", r(region));
  }

  @Override
  public void exit(int region) {
    add("exit", r(region));
  }

  @Override
  public void lockRequest(int region, Object lock) {
    add("lockRequest", r(region), o(lock));
  }

  @Override
  public void lockAcquired(Object lock, int flags) {
    add("lockAcquired", o(lock), flags);
  }

  @Override
  public void lockAcquiredAtOnce(int region, Object lock) {
    add("lockAcquiredAtOnce", r(region), o(lock));
  }

  @Override
  public void userRegionEnter(int region) {
    add("userRegionEnter", r(region));
  }

  @Override
  public void userRegionEnter(String name, int site) {
    add("userRegionEnter", name, site);
  }

  @Override
  public void userRegionExit() {
    add("userRegionExit");
  }

  @Override
  public void measurementOn() {}

  @Override
  public void measurementOff() {}

  @Override
  public boolean isRecording() {
    return true;
  }

  /** The parallelism is the host's: not written. */
  @Override
  public void fork(int region, Object pool, int parallelism) {
    add("fork", r(region), o(pool));
  }

  @Override
  public void join(int region, Object pool) {
    add("join", r(region), o(pool));
  }

  @Override
  public void taskCreate(int region, Object task, Object pool) {
    add("taskCreate", r(region), o(task), o(pool));
  }

  @Override
  public void taskWithdrawn(Object task) {
    add("taskWithdrawn", o(task));
  }

  @Override
  public void tasksWithdrawn(Object tasks) {
    add("tasksWithdrawn", o(tasks));
  }

  @Override
  public void taskRemoved(boolean removed, Object task) {
    add("taskRemoved", Boolean.toString(removed), o(task));
  }

  @Override
  public void taskRejected(Object executor, Object task) {
    add("taskRejected", o(executor), o(task));
  }

  @Override
  public void taskScheduled(int region, int delayedRegion, Object task, Object pool) {
    add("taskScheduled", r(region), r(delayedRegion), o(task), o(pool));
  }

  @Override
  public void taskBegin(Object task) {
    add("taskBegin", o(task));
  }

  @Override
  public void taskEnd(Object task) {
    add("taskEnd", o(task));
  }

  @Override
  public void taskSummary(int region, Object pool, long count, long durationNanos) {
    add("taskSummary", r(region), o(pool), count);
  }

  @Override
  public void joinWaitEnter(int region, Object target) {
    add("joinWaitEnter", r(region), o(target));
  }

  @Override
  public void joinWaitExit(int region) {
    add("joinWaitExit", r(region));
  }

  @Override
  public void joinBlockedEnter(int region, Object task) {
    add("joinBlockedEnter", r(region), o(task));
  }

  @Override
  public void joinBlockedExit(int region) {
    add("joinBlockedExit", r(region));
  }

  @Override
  public void helpEnter(int region) {
    add("helpEnter", r(region));
  }

  @Override
  public void helpExit(int region) {
    add("helpExit", r(region));
  }

  @Override
  public void barrierEnter(int region, Object barrier, long generation) {
    add("barrierEnter", r(region), o(barrier), generation);
  }

  @Override
  public void barrierExit(int region, Object barrier, long generation, int outcome) {
    add("barrierExit", r(region), o(barrier), generation, outcome);
  }

  @Override
  public void lockReleased(Object lock) {
    add("lockReleased", o(lock));
  }

  @Override
  public void waitEnter(int region, int waitKind) {
    add("waitEnter", r(region), waitKind);
  }

  @Override
  public void waitExit(int region) {
    add("waitExit", r(region));
  }

  @Override
  public void parkEnter(int region) {
    add("parkEnter", r(region));
  }

  @Override
  public void queueTakeEnter(int region, Object queue) {
    add("queueTakeEnter", r(region), o(queue));
  }

  @Override
  public void queueTakeExit(int region) {
    add("queueTakeExit", r(region));
  }

  /** Every call counts as one while a consumer waits: tests see each hand-over. */
  @Override
  public long queueHandOverStart() {
    return 1;
  }

  @Override
  public void queueHandedOver(int region, Object queue, long since) {
    add("queueHandedOver", r(region), o(queue));
  }

  @Override
  public void notify(int region, Object object, int waitKind) {
    add("notify", r(region), o(object), waitKind);
  }

  @Override
  public void spinEnter(int region) {
    add("spinEnter", r(region));
  }

  @Override
  public void spinExit(int region) {
    add("spinExit", r(region));
  }

  @Override
  public void threadCreate(int region, Thread child) {
    add("threadCreate", r(region), o(child));
  }

  @Override
  public void poolThreadCreate(int region, Thread child, Object pool) {
    add("poolThreadCreate", r(region), o(child), o(pool));
  }

  @Override
  public void threadBegin() {
    add("threadBegin");
  }

  @Override
  public void threadEnd() {
    add("threadEnd");
  }

  @Override
  public void failed(Throwable problem) {
    add("failed", problem);
  }
}
