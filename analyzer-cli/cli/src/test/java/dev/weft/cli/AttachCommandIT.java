package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.Analyzer;
import dev.weft.cli.apps.TickApp;
import dev.weft.report.TextReport;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.RegionDef;
import dev.weft.trace.Trace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft attach} and {@code weft detach} against real JVMs running {@link
 * dev.weft.cli.apps.TickApp}, with the packaged agent.
 */
@Tag("child-jvm")
class AttachCommandIT {
  @TempDir Path tmp;

  /** What a trace holds of TickApp's regions. */
  record Facts(
      Map<String, String> attributes,
      boolean closedCleanly,
      long tickEnters,
      long tickExits,
      long regionEvents,
      long locksAcquired,
      long firstEventTime) {

    static Facts read(Path dir) {
      try (Trace t = Trace.open(dir)) {
        int tick = -1;
        for (RegionDef r : t.definitions().regions()) {
          if (r.name().equals("tick")) {
            tick = r.id();
          }
        }
        long enters = 0;
        long exits = 0;
        long regions = 0;
        long locks = 0;
        long first = Long.MAX_VALUE;
        EventCursor c = t.events();
        while (c.next()) {
          first = Math.min(first, c.time());
          if (c.kind() == EventKind.LOCK_ACQUIRED) {
            locks++;
          }
          if (c.kind() == EventKind.ENTER || c.kind() == EventKind.EXIT) {
            regions++;
            if (c.kind() == EventKind.ENTER && c.field(0) == tick) {
              enters++;
            }
            if (c.kind() == EventKind.EXIT && c.field(0) == tick) {
              exits++;
            }
          }
        }
        return new Facts(
            t.definitions().attributes(),
            t.definitions().closedCleanly(),
            enters,
            exits,
            regions,
            locks,
            first);
      }
    }
  }

  private static String agent() {
    return ChildJvms.agentJar().toString();
  }

  /** {@code weft attach PID --duration 1500ms OPTIONS --out TRACE --agent JAR}. */
  private static Cli.Result attach1500ms(ChildJvms.Tick app, Path trace, String... options) {
    List<String> args = new ArrayList<>(List.of("attach", Long.toString(app.pid())));
    args.addAll(List.of("--duration", "1500ms"));
    args.addAll(List.of(options));
    args.addAll(List.of("--out", trace.toString(), "--agent", agent()));
    return Cli.run(args.toArray(String[]::new));
  }

  private static void assertFinishedCorrectly(ChildJvms.Tick app, String last) throws Exception {
    assertTrue(last.matches("ticks \\d+ sum \\d+ correct"), last);
    assertEquals(0, app.process.exitValue());
  }

  @Test
  void recordsForTheDurationThenRestoresTheOriginalBytecode() throws Exception {
    try (ChildJvms.Tick app =
        ChildJvms.Tick.start(ChildJvms.java(), tmp.resolve("app"), List.of())) {
      Path trace = tmp.resolve("t1");
      long before = System.nanoTime();
      Cli.Result r = attach1500ms(app, trace);
      assertEquals(0, r.exit(), r.toString());
      assertEquals(2, r.errLines().size(), r.toString());
      assertTrue(
          r.errLines().get(0).startsWith("weft: recording process " + app.pid() + " into " + trace),
          r.err());
      assertTrue(
          r.errLines().get(1).startsWith("weft: detached from process " + app.pid()), r.err());
      assertTrue(r.err().contains("original bytecode restored"), r.err());

      Facts t1 = Facts.read(trace);
      assertTrue(t1.closedCleanly(), "detach closes the trace");
      // "recorded" is what the analysis covers: from the weaving's end to the stop, which the
      // duration's timer spans (the restore after it is left out).
      long analysed;
      try (Trace t = Trace.open(trace)) {
        long from = Long.parseLong(t.definitions().attributes().get("agent.recording_from"));
        analysed = t.definitions().endTime() - from;
      }
      assertTrue(analysed >= 1_500_000_000L, "analysed " + analysed + " ns");
      assertTrue(r.err().contains("recorded " + Durations.format(analysed) + ";"), r.err());
      assertEquals("true", t1.attributes().get("agent.attached"));
      assertEquals("true", t1.attributes().get("agent.detached"));
      // TickApp, Weft and Region were woven, and retransformed back at detach.
      assertTrue(
          Integer.parseInt(t1.attributes().get("agent.restored_classes")) >= 3, t1.toString());
      assertTrue(t1.tickEnters() > 50, "TickApp's regions are recorded: " + t1);
      assertTrue(Math.abs(t1.tickEnters() - t1.tickExits()) <= 1, t1.toString());
      assertTrue(t1.locksAcquired() > 50, "and its lock: " + t1);
      System.out.printf(
          "attach latency (weft attach in-process to first recorded event): %.0f ms%n",
          (t1.firstEventTime() - before) / 1e6);

      // If any woven code were left, it would call the bridge, and a recorder installed later
      // would see its regions. Attach again weaving nothing: TickApp goes on entering regions,
      // and none may be recorded.
      Path trace2 = tmp.resolve("t2");
      Cli.Result r2 =
          Cli.run(
              "attach",
              Long.toString(app.pid()),
              "--duration",
              "1s",
              "--opt",
              "constructs=none",
              "--out",
              trace2.toString(),
              "--agent",
              agent());
      assertEquals(0, r2.exit(), r2.toString());
      Facts t2 = Facts.read(trace2);
      assertTrue(t2.closedCleanly());
      assertEquals(0, t2.regionEvents(), "no woven code is left after detach: " + t2);
      assertEquals(0, t2.locksAcquired(), "no woven code is left after detach: " + t2);

      assertFinishedCorrectly(app, app.finish());
      assertEquals("", app.stderr(), "nothing on the program's stderr on JDK 17");
    }
  }

  /**
   * With {@code --skip-running}, TickApp (its {@code main} loops through the attach) is left as it
   * is: the regions of its method called afresh, which only woven call sites record, are not
   * recorded; its lock is, through the hook in {@code ReentrantLock}. The trace says what was left.
   */
  @Test
  void skipRunningLeavesTheRunningClassesUnwovenAndStillRecordsTheirLocks() throws Exception {
    try (ChildJvms.Tick app =
        ChildJvms.Tick.start(ChildJvms.java(), tmp.resolve("app"), List.of())) {
      Path trace = tmp.resolve("skip");
      Cli.Result r = attach1500ms(app, trace, "--skip-running");
      assertEquals(0, r.exit(), r.toString());
      Facts t = Facts.read(trace);
      String skipped = t.attributes().get("agent.skipped_running_classes");
      assertTrue(skipped != null && skipped.contains(TickApp.class.getName()), t.toString());
      assertEquals(0, t.tickEnters(), "TickApp was not woven: " + t);
      assertTrue(t.locksAcquired() > 50, "its lock is recorded through the JDK's hook: " + t);
      assertFinishedCorrectly(app, app.finish());
    }
  }

  /**
   * TickApp's {@code stdin} thread is blocked reading its standard input from before the attach to
   * the end: the JVM counts it runnable and nothing records it, so the analysis says so from the
   * CPU time the agent takes from its baseline on (without a run-queue figure for a thread that
   * began before the attach). ({@code main} may be named too: its sleeps are in {@code main()},
   * which was running at the attach, so they are not recorded.)
   */
  @Test
  void aThreadBlockedInAReadSinceBeforeTheAttachIsNamed() throws Exception {
    try (ChildJvms.Tick app =
        ChildJvms.Tick.start(ChildJvms.java(), tmp.resolve("app"), List.of())) {
      Path trace = tmp.resolve("read");
      Cli.Result r = attach1500ms(app, trace);
      assertEquals(0, r.exit(), r.toString());
      assertFinishedCorrectly(app, app.finish());
      List<String> notes =
          Analyzer.analyze(trace).notes().stream()
              .filter(n -> n.contains(" off the CPU for "))
              .toList();
      assertEquals(1, notes.size(), notes.toString());
      assertTrue(
          notes
              .get(0)
              .matches(".*(\\(|, )stdin [0-9.]+ m?s of [0-9.]+ m?s \\(run queue unknown[;)].*"),
          notes.get(0));
    }
  }

  /**
   * An event loop that waits in {@code Selector.select} and a listener in {@code
   * ServerSocket.accept}, in frames running since before the attach (their class is not
   * retransformed), are recorded through the hooks in the JDK: their time is {@code network_idle},
   * not execution, and no note calls them off the CPU.
   */
  @Test
  void anEventLoopSelectingSinceBeforeTheAttachIsNetworkIdle() throws Exception {
    try (ChildJvms.Tick app =
        ChildJvms.Tick.start(
            ChildJvms.java(), tmp.resolve("app"), List.of("-Dtick.eventLoop=true"))) {
      Path trace = tmp.resolve("loop");
      Cli.Result r = attach1500ms(app, trace);
      assertEquals(0, r.exit(), r.toString());
      assertFinishedCorrectly(app, app.finish());
      AnalysisResult a = Analyzer.analyze(trace);
      String facts = "\n" + TextReport.render(a);
      for (String thread : List.of("event-loop", "listener")) {
        long idle = a.property("network_idle").thread(thread);
        assertTrue(idle >= a.trace().durationNs() / 2, thread + facts);
        for (String note : a.notes()) {
          assertFalse(note.contains(" off the CPU for ") && note.contains(thread), thread + facts);
        }
      }
    }
  }

  @Test
  void detachStopsEarlyAndASecondAttachIsRefused() throws Exception {
    try (ChildJvms.Tick app =
        ChildJvms.Tick.start(ChildJvms.java(), tmp.resolve("app"), List.of())) {
      String pid = Long.toString(app.pid());
      Path trace = tmp.resolve("t");
      CompletableFuture<Cli.Result> attach =
          CompletableFuture.supplyAsync(
              () ->
                  Cli.run(
                      "attach",
                      pid,
                      "--duration",
                      "10m",
                      "--out",
                      trace.toString(),
                      "--agent",
                      agent()));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.exists(trace.resolve("defs.wdf"))) {
        assertFalse(attach.isDone(), () -> attach.join().toString());
        assertTrue(System.nanoTime() < deadline, "recording did not start");
        Thread.sleep(20);
      }
      Thread.sleep(300);

      BadInputTest.assertOneLineError(
          Cli.run("attach", pid, "--out", tmp.resolve("t2").toString(), "--agent", agent()),
          "process " + pid + " is already being recorded by Weft (into " + trace + ")");
      assertFalse(Files.exists(tmp.resolve("t2")), "the second attach changed nothing");
      // Without a PID, attach lists the JVMs to choose from, this one as being recorded.
      assertEquals("recording", listedWeftColumn(pid));

      Cli.Result d = Cli.run("detach", pid, "--agent", agent());
      assertEquals(0, d.exit(), d.toString());
      assertEquals(
          List.of(
              "weft: detached from process "
                  + pid
                  + ", original bytecode restored; trace in "
                  + trace
                  + "  (next: weft analyze "
                  + trace
                  + ")"),
          d.errLines());
      // weft attach sees the closed trace and returns long before its 10 minutes.
      Cli.Result a = attach.get(60, TimeUnit.SECONDS);
      assertEquals(0, a.exit(), a.toString());
      assertTrue(a.err().contains("weft: the recording was stopped after"), a.err());
      assertTrue(Facts.read(trace).tickEnters() > 0);

      BadInputTest.assertOneLineError(
          Cli.run("detach", pid, "--agent", agent()),
          "process " + pid + " is not being recorded by Weft");
      assertEquals("-", listedWeftColumn(pid), "listed as not recorded after the detach");
      assertFinishedCorrectly(app, app.finish());
    }
  }

  /** The WEFT column of {@code pid}'s row in {@code weft attach}'s list (without a PID). */
  private static String listedWeftColumn(String pid) {
    Cli.Result list = Cli.run("attach");
    assertEquals(2, list.exit(), list.toString());
    assertTrue(list.err().startsWith("weft: attach needs the PID of a JVM"), list.err());
    for (String line : list.errLines()) {
      String[] cols = line.trim().split("\\s+");
      if (cols.length >= 4 && cols[0].equals(pid)) {
        assertEquals(TickApp.class.getName(), cols[cols.length - 1], line);
        return cols[cols.length - 2];
      }
    }
    throw new AssertionError("process " + pid + " is not listed:\n" + list.err());
  }

  @Test
  void aProgramThatExitsDuringTheRecordingLeavesACompleteTrace() throws Exception {
    try (ChildJvms.Tick app =
        ChildJvms.Tick.start(ChildJvms.java(), tmp.resolve("app"), List.of())) {
      Path trace = tmp.resolve("t");
      // The program is told to end once the recording runs (however long attaching takes on a
      // loaded host), not at a fixed time that the attach itself may outlast.
      CountDownLatch recording = new CountDownLatch(1);
      CompletableFuture<Cli.Result> attach =
          CompletableFuture.supplyAsync(
              () ->
                  Cli.runWatchingErr(
                      err -> {
                        if (err.contains("weft: recording process")) {
                          recording.countDown();
                        }
                      },
                      "attach",
                      Long.toString(app.pid()),
                      "--duration",
                      "5m",
                      "--out",
                      trace.toString(),
                      "--agent",
                      agent()));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!recording.await(50, TimeUnit.MILLISECONDS)) {
        assertFalse(attach.isDone(), () -> attach.join().toString());
        assertTrue(System.nanoTime() < deadline, "recording did not start");
      }
      Thread.sleep(200); // a few ticks recorded
      String output = app.finish();
      Cli.Result r = attach.get(60, TimeUnit.SECONDS);
      assertEquals(0, r.exit(), r.toString());
      assertTrue(
          r.errLines().get(1).startsWith("weft: process " + app.pid() + " exited after "), r.err());
      assertTrue(r.err().contains("the trace is complete up to its exit: " + trace), r.err());
      assertFinishedCorrectly(app, output);
      Facts t = Facts.read(trace);
      assertTrue(t.closedCleanly(), "the agent's shutdown hook closed the trace");
      assertTrue(t.tickEnters() > 0);
      assertEquals(t.tickEnters(), t.tickExits());
      Cli.Result v = Cli.run("verify", trace.toString());
      assertEquals(0, v.exit(), v.toString());
    }
  }

  @Test
  void durationZeroReturnsAtOnceAndTheLauncherJarWorksToo() throws Exception {
    try (ChildJvms.Tick app =
        ChildJvms.Tick.start(ChildJvms.java(), tmp.resolve("app"), List.of())) {
      String pid = Long.toString(app.pid());
      Path trace = tmp.resolve("t");
      // The real command line, as a user runs it (java -jar weft.jar, WEFT_HOME finds the agent).
      long before = System.nanoTime();
      ProcessBuilder pb =
          new ProcessBuilder(
                  ChildJvms.java().toString(),
                  "-jar",
                  ChildJvms.cliJar().toString(),
                  "attach",
                  pid,
                  "--duration",
                  "0",
                  "--out",
                  trace.toString(),
                  "--timings")
              .redirectErrorStream(true);
      pb.environment()
          .put("WEFT_HOME", ChildJvms.agentJar().getParent().getParent().getParent().toString());
      Process weft = pb.start();
      String said = new String(weft.getInputStream().readAllBytes());
      assertTrue(weft.waitFor(60, TimeUnit.SECONDS));
      assertEquals(0, weft.exitValue(), said);
      assertTrue(said.contains("until 'weft detach " + pid + "' or its exit"), said);
      assertStepsInOrder(said);
      Thread.sleep(500);
      Cli.Result d = Cli.run("detach", pid, "--agent", agent());
      assertEquals(0, d.exit(), d.toString());
      Facts t = Facts.read(trace);
      assertTrue(t.closedCleanly());
      System.out.printf(
          "attach latency (java -jar weft.jar attach, JVM start included, to first recorded"
              + " event): %.0f ms%n",
          (t.firstEventTime() - before) / 1e6);
      assertFinishedCorrectly(app, app.finish());
    }
  }

  /** {@code --timings}: every step of the attach, in the order they happen. */
  private static void assertStepsInOrder(String said) {
    Matcher m = Pattern.compile("(?m)^weft: timings \\(ms since the epoch\\):(.*)$").matcher(said);
    assertTrue(m.find(), said);
    List<String> names = new ArrayList<>();
    List<Double> times = new ArrayList<>();
    for (String item : m.group(1).trim().split(" ")) {
      String[] kv = item.split("=");
      names.add(kv[0]);
      times.add(Double.parseDouble(kv[1]));
    }
    assertEquals(
        List.of("main", "attach", "attached", "agentmain", "recording", "replied"), names, said);
    for (int i = 1; i < times.size(); i++) {
      assertTrue(times.get(i - 1) <= times.get(i), "steps in order: " + said);
    }
    double now = System.currentTimeMillis();
    assertTrue(times.get(0) > now - 120_000 && times.get(5) <= now + 1_000, said);
  }

  @Test
  void onJdk25TheDynamicAgentWarningIsExplained() throws Exception {
    Path java25 = ChildJvms.java25();
    Assumptions.assumeTrue(java25 != null, "JDK 25 is not installed here");
    try (ChildJvms.Tick app = ChildJvms.Tick.start(java25, tmp.resolve("app"), List.of())) {
      String pid = Long.toString(app.pid());
      Cli.Result r =
          Cli.run(
              "attach",
              pid,
              "--duration",
              "500ms",
              "--out",
              tmp.resolve("t").toString(),
              "--agent",
              agent());
      assertEquals(0, r.exit(), r.toString());
      assertTrue(
          r.errLines()
              .get(0)
              .startsWith(
                  "weft: note: JDK 25 prints a warning about a dynamically"
                      + " loaded agent on the program's stderr; start it with"
                      + " -XX:+EnableDynamicAgentLoading"),
          r.err());
      assertFinishedCorrectly(app, app.finish());
      assertTrue(app.stderr().contains("WARNING: A Java agent has been loaded dynamically"));
      assertTrue(Facts.read(tmp.resolve("t")).tickEnters() > 0);
    }
    try (ChildJvms.Tick app =
        ChildJvms.Tick.start(
            java25, tmp.resolve("app2"), List.of("-XX:+EnableDynamicAgentLoading"))) {
      Cli.Result r =
          Cli.run(
              "attach",
              Long.toString(app.pid()),
              "--duration",
              "500ms",
              "--out",
              tmp.resolve("t2").toString(),
              "--agent",
              agent());
      assertEquals(0, r.exit(), r.toString());
      assertFalse(r.err().contains("note:"), r.err());
      assertFinishedCorrectly(app, app.finish());
      assertEquals("", app.stderr(), "silent with -XX:+EnableDynamicAgentLoading");
    }
  }

  @Test
  void whatCannotBeAttachedToIsOneLine() throws Exception {
    BadInputTest.assertOneLineError(
        Cli.run("attach", "2147483647", "--agent", agent()), "no process with pid 2147483647");
    BadInputTest.assertOneLineError(
        Cli.run("detach", "2147483647", "--agent", agent()), "no process with pid 2147483647");
    BadInputTest.assertOneLineError(Cli.run("attach", "twelve", "--agent", agent()), "'twelve'");

    Process sleep = new ProcessBuilder("sleep", "60").start();
    try {
      BadInputTest.assertOneLineError(
          Cli.run("attach", Long.toString(sleep.pid()), "--agent", agent()),
          "process " + sleep.pid() + " (sleep) is not a Java virtual machine");
      assertTrue(sleep.isAlive(), "weft never signals a process that is not a JVM");
    } finally {
      sleep.destroyForcibly();
    }

    try (ChildJvms.Tick app =
        ChildJvms.Tick.start(
            ChildJvms.java(), tmp.resolve("app"), List.of("-XX:+DisableAttachMechanism"))) {
      BadInputTest.assertOneLineError(
          Cli.run("attach", Long.toString(app.pid()), "--agent", agent()),
          "process " + app.pid() + " was started with -XX:+DisableAttachMechanism");
      assertFinishedCorrectly(app, app.finish());
    }
  }

  @Test
  void anotherUsersProcessIsRefusedBeforeAttaching() throws Exception {
    String me = System.getProperty("user.name");
    List<String> command = new ArrayList<>();
    if (me.equals("root")) {
      // Run a process as nobody; the owner is checked before anything else.
      command.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
      command.addAll(List.of("sleep", "60"));
    }
    Process other = null;
    long pid = -1;
    String owner = null;
    if (!command.isEmpty()) {
      try {
        other = new ProcessBuilder(command).start();
        Thread.sleep(200);
        if (other.isAlive()) {
          pid = other.pid();
          owner = other.info().user().orElse(null);
        }
      } catch (java.io.IOException e) {
        other = null; // no setpriv here
      }
    } else {
      ProcessHandle init = ProcessHandle.of(1).orElse(null);
      if (init != null && init.info().user().filter(u -> !u.equals(me)).isPresent()) {
        pid = 1;
        owner = init.info().user().get();
      }
    }
    try {
      Assumptions.assumeTrue(
          owner != null && !owner.equals(me), "no process of another user to try here");
      BadInputTest.assertOneLineError(
          Cli.run("attach", Long.toString(pid), "--agent", agent()),
          "process " + pid + " belongs to user " + owner + " and weft runs as " + me);
    } finally {
      if (other != null) {
        other.destroyForcibly();
      }
    }
  }
}
