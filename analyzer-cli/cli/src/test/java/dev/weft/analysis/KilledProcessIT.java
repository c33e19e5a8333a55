package dev.weft.analysis;

import static dev.weft.cli.ChildJvms.agentJar;
import static dev.weft.cli.ChildJvms.location;
import static dev.weft.cli.ChildJvms.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.analysis.apps.BarrierRoundsApp;
import dev.weft.report.TextReport;
import dev.weft.trace.EventCursor;
import dev.weft.trace.Trace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A traced program killed with kill -9 (SIGKILL) while its workers meet at a barrier and main waits
 * for them in Thread.join: the analysis covers the whole run up to the kill, not only the stretch
 * before main's last event.
 */
@Tag("child-jvm")
class KilledProcessIT {
  @TempDir Path tmp;

  @Test
  void aKilledProgramIsAnalysedUpToTheKill() throws Exception {
    Path trace = tmp.resolve("trace");
    Path out = tmp.resolve("app.out");
    Path err = tmp.resolve("app.err");
    Process p =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-javaagent:" + agentJar() + "=out=" + trace,
                    "-cp",
                    location(BarrierRoundsApp.class).toString(),
                    BarrierRoundsApp.class.getName()))
            .directory(tmp.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    long killed;
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!Files.readString(out).startsWith("ready")) {
        assertTrue(p.isAlive(), () -> "the program ended early: " + read(err));
        assertTrue(System.nanoTime() < deadline, "the program is not ready after 60 s");
        Thread.sleep(10);
      }
      Thread.sleep(1000);
      // System.nanoTime is CLOCK_MONOTONIC on Linux, the same clock in every process: the trace's
      // times and this one compare.
      killed = System.nanoTime();
    } finally {
      p.destroyForcibly();
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the killed program is gone");

    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long events = 0;
    try (Trace t = Trace.open(trace)) {
      EventCursor c = t.events();
      while (c.next()) {
        first = Math.min(first, c.time());
        last = Math.max(last, c.time());
        events++;
      }
    }
    AnalysisResult r = Analyzer.analyze(trace);
    String facts = "\n" + TextReport.render(r);

    assertEquals(AnalysisResult.Status.CUT, r.status(), facts);
    assertEquals(events, r.trace().events(), "every event is analysed" + facts);
    long end = r.trace().window().endNs();
    assertTrue(Math.abs(last - end) <= 50_000_000L, "window end vs last event" + facts);
    double covered = (double) (end - first) / (killed - first);
    assertTrue(covered > 0.8, "covers " + covered + " of first event to kill" + facts);
    assertTrue(r.trace().durationNs() >= end - first, facts);
    // main has been waiting in Thread.join since early on: counted up to the cut, marked open.
    assertTrue(r.trace().cut().openWaits() >= 1, facts);
    assertTrue(
        Check.onThread(r, "join_wait", "main") > 0.8 * (end - first),
        "main's join wait counts up to the cut" + facts);
    assertTrue(r.statusDetail().startsWith("cut at "), r.statusDetail());
    assertTrue(Check.severity(r, "barrier_wait") > 0, facts);
    for (String n : r.notes()) {
      assertTrue(!n.startsWith("internal check failed") && !n.contains("ignored"), n + facts);
    }
  }
}
