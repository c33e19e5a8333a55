package dev.weft.analysis;

import static dev.weft.cli.ChildJvms.agentJar;
import static dev.weft.cli.ChildJvms.location;
import static dev.weft.cli.ChildJvms.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.analysis.apps.VirtualPinningApp;
import dev.weft.export.otf2.Otf2Exporter;
import dev.weft.report.HtmlReport;
import dev.weft.report.TextReport;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The virtual-thread properties against {@link VirtualPinningApp}'s own measurements, on JDK 25
 * (JDK 17 has no virtual threads: skipped where only 17 is installed): {@code vthread_pinning} is
 * the time the class initialisers slept (±15 %), none of the unpinned sleeps; {@code
 * carrier_utilisation} covers at least that time and its timeline adds up to its severity; a
 * carrier's time running virtual threads is its execution, not idle time.
 */
@Tag("child-jvm")
class VirtualThreadPropertiesIT {
  @TempDir Path tmp;

  @Test
  void pinnedSleepsAndCarrierBusyTime() throws Exception {
    String home = System.getProperty("weft.jdk25.home", "");
    assumeTrue(
        !home.isBlank() && Files.isExecutable(Path.of(home, "bin", "java")),
        "JDK 25 not installed (weft.jdk25.home): JDK 17 has no virtual threads");
    Path trace = tmp.resolve("trace");
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    Process p =
        new ProcessBuilder(
                List.of(
                    Path.of(home, "bin", "java").toString(),
                    "-javaagent:" + agentJar() + "=out=" + trace,
                    "-cp",
                    location(VirtualPinningApp.class).toString(),
                    VirtualPinningApp.class.getName(),
                    "20"))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the program ends");
    assertEquals(0, p.exitValue(), read(err));
    assertEquals("", read(err));
    long pinned = printed(read(out), "pinned_ns");
    assertTrue(pinned >= 8 * 20_000_000L, read(out));

    AnalysisResult r = Analyzer.analyze(trace);
    String facts = "\n" + TextReport.render(r);
    AnalysisResult.PropertyResult pinning = r.property("vthread_pinning");
    assertTrue(
        Math.abs(pinning.severityNs() - pinned) <= pinned * 15 / 100,
        "pinned " + pinned + " ns, analysed " + pinning.severityNs() + facts);
    assertEquals(pinning.severityNs(), pinning.causes().get("sleep"), facts);
    assertEquals(8, pinning.byThread().size(), "the eight initialising threads" + facts);

    AnalysisResult.PropertyResult carriers = r.property("carrier_utilisation");
    assertTrue(carriers.severityNs() >= pinning.severityNs(), facts);
    AnalysisResult.Timeline t = carriers.timeline();
    assertNotNull(t, facts);
    assertEquals(carriers.byThread().size(), t.rows().size(), facts);
    long window = r.trace().durationNs();
    double busy = 0;
    for (AnalysisResult.TimelineRow row : t.rows()) {
      assertEquals(20, row.share().size());
      busy += row.total() * window;
      for (double share : row.share()) {
        assertTrue(share >= 0 && share <= 1, "a share: " + share + facts);
      }
    }
    assertTrue(
        Math.abs(busy - carriers.severityNs())
            <= carriers.severityNs() / 100 + t.rows().size() * window / 1000,
        "the timeline adds up to the busy time: " + busy + facts);
    assertTrue(facts.contains("Carrier utilisation over time"), facts);
    // A carrier running a virtual thread is not idle: that time is its execution, at (running
    // virtual threads), as long as carrier_utilisation's busy time.
    for (AnalysisResult.ThreadSeverity c : carriers.byThread()) {
      long ran = c.severityNs();
      long executed = r.property("execution").thread(c.thread());
      long idle = r.property("idle_threads").thread(c.thread());
      assertTrue(
          Math.abs(executed - ran) <= ran / 100 + 1_000_000,
          c.thread() + " ran virtual threads " + ran + " ns, executed " + executed + facts);
      assertTrue(idle + ran <= window, c.thread() + " idle " + idle + " ns" + facts);
    }
    assertTrue(AnalysisJson.toJson(r).contains("\"timeline\""), "the JSON carries it");

    // The virtual threads are threads of their own in the HTML timeline and the OTF2 archive.
    ByteArrayOutputStream html = new ByteArrayOutputStream();
    HtmlReport.write(new ObjectMapper().readTree(AnalysisJson.toJson(r)), trace, html);
    assertTrue(html.size() > 0);
    try (Trace t2 = Trace.open(trace)) {
      Otf2Exporter otf2 = new Otf2Exporter(t2);
      otf2.write(tmp.resolve("otf2"));
      long carried = 0;
      for (ThreadDef d : t2.definitions().threads()) {
        if (d.isCarried()) {
          carried++;
          assertTrue(
              otf2.locationEvents().getOrDefault((long) d.stream(), 0L) > 0,
              "virtual thread " + d.name() + " has its OTF2 location");
        }
      }
      assertTrue(carried > 0, "the app's virtual threads are carried");
    }
  }

  private static long printed(String stdout, String label) {
    for (String line : stdout.split("\\R")) {
      if (line.startsWith(label + ": ")) {
        return Long.parseLong(line.substring(label.length() + 2).trim());
      }
    }
    throw new AssertionError("no " + label + " in " + stdout);
  }
}
