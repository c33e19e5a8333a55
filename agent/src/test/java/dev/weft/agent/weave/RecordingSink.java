package dev.weft.agent.weave;

import dev.weft.agent.bridge.WeftSink;
import java.util.ArrayList;
import java.util.List;

/** A sink that writes down the calls it gets, as "enter 3", "exit 3", "lockRequest 5". */
final class RecordingSink extends WeftSink {
  final List<String> calls = new ArrayList<>();

  @Override
  public void enter(int region) {
    calls.add("enter " + region);
  }

  @Override
  public void exit(int region) {
    calls.add("exit " + region);
  }

  @Override
  public void lockRequest(int region, Object lock) {
    calls.add("lockRequest " + region + " " + lock);
  }

  @Override
  public void lockAcquired(Object lock, int flags) {
    calls.add("lockAcquired " + lock + " " + flags);
  }

  @Override
  public void userRegionEnter(int region) {}

  @Override
  public void userRegionEnter(String name, int site) {}

  @Override
  public void userRegionExit() {}

  @Override
  public void measurementOn() {}

  @Override
  public void measurementOff() {}

  @Override
  public boolean isRecording() {
    return true;
  }

  @Override
  public void fork(int region, Object pool, int parallelism) {}

  @Override
  public void join(int region, Object pool) {}

  @Override
  public void taskCreate(int region, Object task, Object pool) {}

  @Override
  public void taskBegin(Object task) {}

  @Override
  public void taskEnd(Object task) {}

  @Override
  public void taskSummary(int region, Object pool, long count, long durationNanos) {}

  @Override
  public void joinWaitEnter(int region, Object target) {}

  @Override
  public void joinWaitExit(int region) {}

  @Override
  public void joinBlockedEnter(int region, Object task) {}

  @Override
  public void joinBlockedExit(int region) {}

  @Override
  public void helpEnter(int region) {}

  @Override
  public void helpExit(int region) {}

  @Override
  public void barrierEnter(int region, Object barrier, long generation) {}

  @Override
  public void barrierExit(int region, Object barrier, long generation, int outcome) {}

  @Override
  public void lockReleased(Object lock) {}

  @Override
  public void waitEnter(int region, int waitKind) {}

  @Override
  public void waitExit(int region) {}

  @Override
  public void notify(int region, Object object, int waitKind) {}

  @Override
  public void spinEnter(int region) {}

  @Override
  public void spinExit(int region) {}

  @Override
  public void threadCreate(int region, Thread child) {}

  @Override
  public void poolThreadCreate(int region, Thread child, Object pool) {}

  @Override
  public void threadBegin() {}

  @Override
  public void threadEnd() {}

  @Override
  public void failed(Throwable problem) {
    calls.add("failed " + problem);
  }
}
