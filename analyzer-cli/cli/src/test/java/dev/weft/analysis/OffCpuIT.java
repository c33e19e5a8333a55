package dev.weft.analysis;

import static dev.weft.cli.ChildJvms.traceApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.apps.HttpApp;
import dev.weft.analysis.apps.OffCpuApp;
import dev.weft.report.TextReport;
import dev.weft.trace.Definitions;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.ThreadJvmCounts;
import dev.weft.trace.Trace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * "Never a silent result": a thread blocked in a socket channel's read, where Weft records nothing,
 * is named as off the CPU from the CPU and run-queue times the agent writes; a thread that computes
 * as long is not, nor is {@code main}, which sleeps (recorded) and waits in joins. A socket
 * stream's read and a selector's select are recorded ({@code io_wait}, {@code network_idle}), and
 * the idle event loop lies on no chain of the critical path although it waited longest.
 */
@Tag("child-jvm")
class OffCpuIT {
  /** How long each thread runs, in ms; as long as the JVM's counts need (see HiddenMonitorIT). */
  private static final long MS = 1500;

  @TempDir Path tmp;

  static Stream<Path> jdks() {
    return HiddenMonitorIT.jdks();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void threadsBlockedOnTheNetworkAreRecordedOrNamed(Path jdk) throws Exception {
    Path trace = tmp.resolve("trace");
    traceApp(jdk, trace, OffCpuApp.class, Long.toString(MS));

    boolean linux = Files.isReadable(Path.of("/proc/thread-self/schedstat"));
    try (Trace t = Trace.open(trace)) {
      Definitions d = t.definitions();
      ThreadJvmCounts reader = counts(d, "channel-reader");
      ThreadJvmCounts spinner = counts(d, "spinner");
      ThreadJvmCounts main = counts(d, "main");
      String all = "\n" + d.jvmCounts();
      assertTrue(reader.hasCpu() && reader.cpuNs() < MS * 1_000_000 / 4, all);
      assertTrue(spinner.hasCpu() && main.hasCpu(), all);
      if (linux) {
        assertTrue(reader.hasRunQueue() && spinner.hasRunQueue() && main.hasRunQueue(), all);
        // A thread that never blocks is on a CPU or waiting for one.
        assertTrue(spinner.cpuNs() + spinner.runQueueNs() >= MS * 1_000_000 * 8 / 10, all);
      }
    }

    AnalysisResult r = Analyzer.analyze(trace);
    String facts = "\n" + TextReport.render(r);
    List<String> notes = r.notes().stream().filter(n -> n.contains(" off the CPU for ")).toList();
    assertEquals(1, notes.size(), facts);
    String note = notes.get(0);
    assertTrue(note.startsWith("1 thread was off the CPU for "), facts);
    assertTrue(note.contains("(channel-reader "), facts);
    for (String other : List.of("socket-reader", "event-loop", "spinner", "main")) {
      assertFalse(note.contains(other), other + facts);
    }
    assertTrue(AnalysisJson.toJson(r).contains(note), "the JSON carries it");

    long ms = MS * 1_000_000L;
    assertTrue(Check.onThread(r, "io_wait", "socket-reader") >= ms * 8 / 10, facts);
    assertTrue(Check.onThread(r, "network_idle", "event-loop") >= ms * 12 / 10, facts);
    assertEquals(0, Check.onThread(r, "condition_wait", "socket-reader"), facts);
    assertEquals(0, Check.onThread(r, "condition_wait", "event-loop"), facts);
    // The loop waited longest, but idle: the critical path goes through the others' chains.
    assertTrue(r.criticalPath().byThread().size() > 0, facts);
    for (AnalysisResult.CriticalThread t : r.criticalPath().byThread()) {
      assertFalse(t.thread().equals("event-loop"), facts);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void theJdksOwnHttpSelectorLoopsAreIdleAndItsSendsAreIoWaits(Path jdk) throws Exception {
    Path trace = tmp.resolve("trace");
    int requests = 20;
    long ms = 40;
    traceApp(jdk, trace, HttpApp.class, Integer.toString(requests), Long.toString(ms));

    AnalysisResult r = Analyzer.analyze(trace);
    String facts = "\n" + TextReport.render(r);
    long answers = requests * ms * 1_000_000L;
    for (String client : List.of("http-client-0", "http-client-1")) {
      assertTrue(Check.onThread(r, "io_wait", client) >= answers * 9 / 10, client + facts);
    }
    assertEquals(0, r.property("io_wait").causes().get("socket_read_ns"), facts);
    // The JDK's selector loops wait for the exchanges: idle, not off the CPU in nothing recorded.
    assertTrue(Check.onThreadsStartingWith(r, "network_idle", "HttpClient-") >= answers / 2, facts);
    assertTrue(
        Check.onThreadsStartingWith(r, "network_idle", "HTTP-Dispatcher") >= answers / 2, facts);
    List<String> off = r.notes().stream().filter(n -> n.contains(" off the CPU for ")).toList();
    for (String note : off) {
      assertFalse(note.contains("SelectorManager") || note.contains("HTTP-Dispatcher"), facts);
    }
  }

  private static ThreadJvmCounts counts(Definitions d, String name) {
    for (ThreadDef t : d.threads()) {
      if (t.name().equals(name)) {
        ThreadJvmCounts c = d.jvmCounts(t.stream());
        assertTrue(c != null, name + " has its counts: " + d.attributes());
        return c;
      }
    }
    throw new AssertionError("no thread " + name);
  }
}
