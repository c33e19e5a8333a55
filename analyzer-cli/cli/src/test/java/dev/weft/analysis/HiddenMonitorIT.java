package dev.weft.analysis;

import static dev.weft.cli.ChildJvms.traceApp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.analysis.apps.HiddenMonitorApp;
import dev.weft.report.TextReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * "Never a silent result": four threads contending on a monitor taken by synchronized methods of a
 * JDK class ({@code Vector}), which the agent does not weave, get a note from the JVM's own counts;
 * the same contention on a woven {@code synchronized} block, or inside the JDK's {@code
 * Collections.synchronizedList} (whose blocks the agent weaves), gets none (no false alarm, over
 * several runs) and is recorded.
 */
@Tag("child-jvm")
class HiddenMonitorIT {
  private static final String NOTE = "the JVM counted ";

  @TempDir Path tmp;

  static Stream<Path> jdks() {
    List<Path> out = new ArrayList<>();
    out.add(Path.of(System.getProperty("java.home")));
    String jdk25 = System.getProperty("weft.jdk25.home", "");
    if (!jdk25.isBlank() && Files.isExecutable(Path.of(jdk25, "bin", "java"))) {
      out.add(Path.of(jdk25));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void monitorsInsideJdkClassesAreNotSilent(Path jdk) throws Exception {
    AnalysisResult r = analyze(jdk, "jdk", tmp.resolve("jdk"));
    String facts = "\n" + TextReport.render(r);
    List<String> notes = jvmNotes(r);
    assertEquals(1, notes.size(), facts);
    String note = notes.get(0);
    assertTrue(note.contains(" on 4 threads that Weft did not record ("), facts);
    for (int k = 0; k < 4; k++) {
      assertTrue(note.contains("contender-" + k + " "), facts);
    }
    assertTrue(note.endsWith("their waiting counts as execution here"), facts);
    assertTrue(
        TextReport.render(r).replaceAll("\\s+", " ").contains(note), "the text report shows it");
    assertTrue(AnalysisJson.toJson(r).contains(note), "the JSON carries it");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void wovenMonitorsRaiseNoFalseAlarm(Path jdk) throws Exception {
    for (int run = 0; run < 3; run++) {
      AnalysisResult r = analyze(jdk, "woven", tmp.resolve("woven-" + run));
      assertEquals(List.of(), jvmNotes(r), "run " + run + "\n" + TextReport.render(r));
      assertTrue(Check.severity(r, "monitor_contention") > 0, "the contention is recorded");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void theJdksSynchronizedWrappersAreRecorded(Path jdk) throws Exception {
    for (int run = 0; run < 3; run++) {
      AnalysisResult r = analyze(jdk, "wrapper", tmp.resolve("wrapper-" + run));
      assertEquals(List.of(), jvmNotes(r), "run " + run + "\n" + TextReport.render(r));
      long inWrapper = 0;
      for (AnalysisResult.CallPathSeverity c :
          Check.property(r, "monitor_contention").byCallpath()) {
        if (!c.path().isEmpty()
            && c.path().get(c.path().size() - 1).startsWith("synchronized @ Collections.java:")) {
          inWrapper += c.severityNs();
        }
      }
      assertTrue(
          inWrapper > 0, "the contention is recorded inside the wrapper\n" + TextReport.render(r));
    }
  }

  /**
   * Threads waking a selector up contend with each other and with the selecting thread for the
   * selector's wake-up lock, inside the JDK ({@code EPollSelectorImpl}'s {@code wakeup} and {@code
   * clearInterrupt}, after the select, inside the select the event loop's call site records): the
   * contention is recorded there, and nothing is left for the JVM's count to point at.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("jdks")
  void theSelectorsWakeUpLockIsRecorded(Path jdk) throws Exception {
    assumeTrue(System.getProperty("os.name").startsWith("Linux"), "EPollSelectorImpl on Linux");
    for (int run = 0; run < 3; run++) {
      AnalysisResult r = analyze(jdk, "selector", tmp.resolve("selector-" + run));
      String facts = "run " + run + "\n" + TextReport.render(r);
      assertEquals(List.of(), jvmNotes(r), facts);
      long inSelector = 0;
      long loopInSelect = 0;
      for (AnalysisResult.CallPathSeverity c :
          Check.property(r, "monitor_contention").byCallpath()) {
        List<String> path = c.path();
        if (!path.isEmpty()
            && path.get(path.size() - 1).startsWith("synchronized @ EPollSelectorImpl.java:")) {
          inSelector += c.severityNs();
          if (path.get(0).startsWith("Selector.select @ HiddenMonitorApp.java:")) {
            loopInSelect += c.severityNs();
          }
        }
      }
      assertTrue(inSelector > 0, facts);
      assertTrue(loopInSelect > 0, "the event loop's, inside its select\n" + facts);
      assertTrue(Check.onThread(r, "network_idle", "event-loop") > 0, facts);
    }
  }

  private static List<String> jvmNotes(AnalysisResult r) {
    return r.notes().stream().filter(n -> n.startsWith(NOTE)).toList();
  }

  private static AnalysisResult analyze(Path jdk, String mode, Path trace) throws Exception {
    // Longer than the agent takes, on a loaded host, to load java.management for the JVM's
    // counts: threads that end before get none (JvmCounts).
    traceApp(jdk, trace, HiddenMonitorApp.class, mode, "1500");
    return Analyzer.analyze(trace);
  }
}
