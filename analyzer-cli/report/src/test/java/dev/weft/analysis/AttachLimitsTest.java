package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.report.TextReport;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an attached recording could not see: in the header of the text report and in JSON. */
class AttachLimitsTest {
  @TempDir Path tmp;

  private Path trace(String name, String... attributes) throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve(name));
    int work = f.region("work", ConstructKind.USER_REGION, 10);
    StreamWriter w = f.thread("main", 0);
    w.enter(10, work);
    w.exit(1_000_000, work);
    for (int i = 0; i < attributes.length; i += 2) {
      f.writer.defineAttribute(attributes[i], attributes[i + 1]);
    }
    return f.close(2_000_000);
  }

  @Test
  void aRecordingStartedWithTheJvmSaysNothing() throws IOException {
    AnalysisResult r = Analyzer.analyze(trace("premain"));
    assertNull(r.trace().notSeenWhenAttached());
    assertFalse(TextReport.render(r).contains("ATTACHED"));
    assertFalse(AnalysisJson.toJson(r).contains("not_seen_when_attached"));
  }

  @Test
  void anAttachedRecordingSaysWhatItCouldNotSee() throws IOException {
    AnalysisResult r =
        Analyzer.analyze(
            trace(
                "attached",
                "agent.attached",
                "true",
                "agent.running_frames",
                "locks,barriers,waits"));
    List<String> unseen = r.trace().notSeenWhenAttached();
    assertEquals(3, unseen.size(), unseen.toString());
    assertTrue(unseen.get(0).startsWith("waits, regions and tasks already in progress"));
    assertTrue(unseen.get(1).contains("synchronized contention"), unseen.get(1));
    assertTrue(
        unseen
            .get(1)
            .contains(
                "(seen there: ReentrantLock acquisitions, CyclicBarrier waits, Condition waits)"),
        unseen.get(1));
    String text = TextReport.render(r);
    assertTrue(text.contains("  ATTACHED: the agent was loaded into the running program"), text);
    assertTrue(AnalysisJson.toJson(r).contains("\"not_seen_when_attached\""));
  }

  @Test
  void monitorsInRunningFramesAreSeenFromWhenTheJvmsEventsWereRead() throws IOException {
    // The fixture's clock starts at trace time 0.
    AnalysisResult r =
        Analyzer.analyze(
            trace(
                "monitors",
                "agent.attached",
                "true",
                "agent.running_frames",
                "locks",
                "agent.monitor_events_from",
                Long.toString(2_500_000_000L)));
    String running = r.trace().notSeenWhenAttached().get(1);
    assertTrue(
        running.contains("synchronized contention and Object.wait before 2.5 s after the start"),
        running);
    assertTrue(
        running.contains("seen there: ReentrantLock acquisitions, synchronized contention and"),
        running);
  }

  @Test
  void theMonitorCoverageIsGivenAsAShareOfTheRecording() throws IOException {
    // The fixture's trace ends at 2 ms: the JVM's events from 0.5 ms on cover its last 75 %.
    AnalysisResult r =
        Analyzer.analyze(
            trace(
                "covered",
                "agent.attached",
                "true",
                "agent.running_frames",
                "locks",
                "agent.monitor_events_from",
                Long.toString(500_000L)));
    String running = r.trace().notSeenWhenAttached().get(1);
    assertTrue(
        running.contains(
            "synchronized contention and Object.wait from 0.0 s after the start, the last 75 %"
                + " of the recording, through the JVM's events"),
        running);
  }

  @Test
  void monitorEventsThatNeverStartedAreNotClaimed() throws IOException {
    AnalysisResult r =
        Analyzer.analyze(
            trace(
                "never",
                "agent.attached",
                "true",
                "agent.running_frames",
                "locks",
                "agent.monitor_events",
                "not started before the recording stopped"));
    String running = r.trace().notSeenWhenAttached().get(1);
    assertTrue(
        running.contains(
            "synchronized contention, Object.wait (the JVM's monitor events had not started when"
                + " the recording stopped)"),
        running);
    assertFalse(running.contains("through the JVM's events"), running);
  }

  @Test
  void theOtherHookedJdkConstructsAreSaidToBeSeen() throws IOException {
    AnalysisResult r =
        Analyzer.analyze(
            trace(
                "all",
                "agent.attached",
                "true",
                "agent.running_frames",
                "locks,barriers,waits,semaphores,read_write_locks,stamped_locks,latches,phasers,"
                    + "joins,futures,phaser_arrivals,forkjoin,thread_starts,selects,accepts,"
                    + "pool_workers"));
    String running = r.trace().notSeenWhenAttached().get(1);
    assertTrue(
        running.contains(
            "seen there: ReentrantLock acquisitions, CyclicBarrier waits, Condition waits,"
                + " Semaphore acquisitions, read/write lock acquisitions, StampedLock acquisitions,"
                + " CountDownLatch waits,"
                + " Phaser waits, Thread.join, Future.get and CompletableFuture joins,"
                + " Phaser arrivals without a wait, fork-join joins and invoke, thread starts,"
                + " selectors' select, servers' accept, tasks of thread pool workers started"
                + " before the attach)"),
        running);
    assertTrue(
        running.contains(
            "Thread.sleep; LockSupport.park; blocking queues' take and put; waits in"
                + " synchronizers built on AbstractQueuedSynchronizer (seen there:"),
        running);
    assertFalse(running.contains("; Semaphore"), running);
  }

  @Test
  void anOlderAgentsRecordingSaysArrivalsAndForkJoinJoinsWereNotSeen() throws IOException {
    AnalysisResult r =
        Analyzer.analyze(
            trace("older", "agent.attached", "true", "agent.running_frames", "phasers,futures"));
    String running = r.trace().notSeenWhenAttached().get(1);
    assertTrue(running.contains("; Phaser arrivals without a wait; fork-join joins and"), running);
  }

  @Test
  void classesLeftUnwovenAsRunningAreNamed() throws IOException {
    AnalysisResult r =
        Analyzer.analyze(
            trace(
                "skipped",
                "agent.attached",
                "true",
                "agent.skipped_running_classes",
                "2 (com.acme.Worker, com.acme.Server)"));
    List<String> unseen = r.trace().notSeenWhenAttached();
    assertEquals(4, unseen.size(), unseen.toString());
    assertTrue(
        unseen.get(3).startsWith("classes left unwoven because a method of theirs was running"),
        unseen.get(3));
    assertTrue(unseen.get(3).endsWith(": 2 (com.acme.Worker, com.acme.Server)"), unseen.get(3));
    AnalysisResult none =
        Analyzer.analyze(
            trace("noneSkipped", "agent.attached", "true", "agent.skipped_running_classes", "0"));
    assertEquals(3, none.trace().notSeenWhenAttached().size());
  }

  @Test
  void threadsWaitingAtTheAttachAreNamed() throws IOException {
    AnalysisResult r =
        Analyzer.analyze(
            trace(
                "waiting",
                "agent.attached",
                "true",
                "agent.threads_waiting_at_attach",
                "2 (worker-0 WAITING, pool-1 BLOCKED)"));
    List<String> unseen = r.trace().notSeenWhenAttached();
    assertEquals(4, unseen.size(), unseen.toString());
    assertEquals(
        "threads blocked or waiting when the agent attached, counted as running until their first"
            + " recorded event: 2 (worker-0 WAITING, pool-1 BLOCKED)",
        unseen.get(3));
    AnalysisResult none =
        Analyzer.analyze(
            trace("none", "agent.attached", "true", "agent.threads_waiting_at_attach", "0"));
    assertEquals(3, none.trace().notSeenWhenAttached().size());
  }

  @Test
  void waitsRecordedFromTheStartAreSaidToBe() throws IOException {
    AnalysisResult r =
        Analyzer.analyze(
            trace(
                "open",
                "agent.attached",
                "true",
                "agent.threads_waiting_at_attach",
                "2 (worker-0 WAITING, pool-1 WAITING)",
                "agent.waits_open_at_attach",
                "1 (worker-0 CyclicBarrier.await; 0 lasted to the end)"));
    List<String> unseen = r.trace().notSeenWhenAttached();
    assertTrue(
        unseen
            .get(0)
            .startsWith(
                "regions and tasks already in progress when the recording started, and the part"
                    + " before it of the waits then in progress"),
        unseen.get(0));
    assertTrue(
        unseen.get(0).contains("1 (worker-0 CyclicBarrier.await; 0 lasted to the end)"),
        unseen.get(0));
    assertTrue(
        unseen.get(3).startsWith("threads blocked or waiting when the agent attached whose wait"),
        unseen.get(3));
  }

  @Test
  void withoutHooksForRunningFramesEveryKindOfWaitThereIsUnseen() throws IOException {
    AnalysisResult r = Analyzer.analyze(trace("old", "agent.attached", "true"));
    String running = r.trace().notSeenWhenAttached().get(1);
    assertTrue(running.contains("ReentrantLock acquisitions; CyclicBarrier waits"), running);
    assertFalse(running.contains("seen there"), running);
  }
}
