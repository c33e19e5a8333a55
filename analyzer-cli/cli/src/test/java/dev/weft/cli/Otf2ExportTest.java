package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.LockFlags;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamCursor;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft export --format otf2}, checked with the OTF2 reference reader: otf2-print reads the
 * archive without error, and the events it finds per location are those Weft's events map to
 * (analyzer-cli/EXPORT.md), counted from the Weft trace independently.
 */
class Otf2ExportTest {
  private static final Pattern EVENT = Pattern.compile("^([A-Z_]+)\\s+(\\d+)\\s+(\\d+)\\s+(.*)$");
  private static final Pattern LOCATION =
      Pattern.compile("^LOCATION\\s+(\\d+)\\s+Name: \"([^\"]*)\".*# Events: (\\d+),.*$");

  @TempDir Path tmp;

  @BeforeEach
  void needsOtf2Print() {
    assumeTrue(Otf2Print.required(), "OTF2 tests switched off with -Dweft.otf2.tests=false");
  }

  @Test
  void otf2PrintReadsTheArchiveAndCountsWhatWeftRecorded() throws Exception {
    for (Path trace :
        List.of(
            TestTraces.sample(tmp.resolve("sample")),
            TestTraces.wellFormed(tmp.resolve("well-formed")))) {
      Path out = tmp.resolve(trace.getFileName() + ".otf2");
      Cli.Result r = Cli.run("export", trace.toString(), "--format", "otf2", "-o", out.toString());
      assertEquals(0, r.exit(), r.toString());
      assertTrue(r.err().startsWith("weft: wrote " + out.resolve("traces.otf2")), r.err());

      Otf2Print.Output events = Otf2Print.run(out.resolve("traces.otf2"));
      assertEquals(0, events.exit(), events.err());
      assertTrue(events.err().isEmpty(), events.err());
      Map<Long, Map<String, Long>> found = new TreeMap<>();
      long lastTime = 0;
      for (String line : events.lines()) {
        Matcher m = EVENT.matcher(line);
        if (m.matches() && !m.group(1).equals("Event")) {
          found
              .computeIfAbsent(Long.parseLong(m.group(2)), k -> new TreeMap<>())
              .merge(m.group(1), 1L, Long::sum);
          long time = Long.parseLong(m.group(3));
          assertTrue(time >= lastTime, "otf2-print merges by time: " + line);
          lastTime = time;
        }
      }
      assertEquals(expected(trace), found);

      Otf2Print.Output defs = Otf2Print.run(out.resolve("traces.otf2"), "-G");
      assertEquals(0, defs.exit(), defs.err());
      Map<Long, Long> declared = new TreeMap<>();
      for (String line : defs.lines()) {
        Matcher m = LOCATION.matcher(line);
        if (m.matches()) {
          declared.put(Long.parseLong(m.group(1)), Long.parseLong(m.group(3)));
        }
      }
      Map<Long, Long> counted = new TreeMap<>();
      found.forEach(
          (loc, kinds) -> counted.put(loc, kinds.values().stream().mapToLong(x -> x).sum()));
      assertEquals(counted, declared, "each location's declared event count");
      String all = String.join("\n", defs.lines());
      assertTrue(all.contains("Name: \"main\""), all);
      assertTrue(all.contains("File: \"Demo.java\""), all);
      assertTrue(all.contains("Name: \"task Demo.run:60\""), all);
      assertTrue(
          all.contains("Ticks per Seconds: 1000000000, Global Offset: 1700000000000001000"), all);
    }
  }

  /** A submission handed on by a wrapping executor: the task is named by the outer call. */
  @Test
  void aTaskSubmittedThroughAWrappingExecutorIsNamedByTheOuterCall() throws Exception {
    Path trace = TestTraces.wrappedSubmission(tmp.resolve("wrapped"));
    Path out = tmp.resolve("wrapped.otf2");
    Cli.Result r = Cli.run("export", trace.toString(), "--format", "otf2", "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    Otf2Print.Output defs = Otf2Print.run(out.resolve("traces.otf2"), "-G");
    assertEquals(0, defs.exit(), defs.err());
    String all = String.join("\n", defs.lines());
    assertTrue(all.contains("Name: \"task Demo.run:143\""), all);
    assertFalse(all.contains("task Demo.run:47"), all);
  }

  /**
   * A thread whose events fill several 1 MiB chunks, and a region whose definition is longer than
   * 254 bytes (the long form of a record's length).
   */
  @Test
  void eventsAcrossChunksAndLongRecords() throws Exception {
    Path trace = tmp.resolve("long");
    int pairs = 120_000;
    String longName = "region " + "x".repeat(300);
    try (TraceWriter w = TraceWriter.create(trace, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.defineRegion(
          new RegionDef(1, ConstructKind.USER_REGION, longName, "app.A", "m", "A.java", 3, 9));
      StreamWriter s = w.openStream(1, "main", 0, 0, 0);
      s.threadBegin(0);
      for (int i = 0; i < pairs; i++) {
        s.enter(1_000L + 2_000L * i, 1);
        s.exit(1_000L + 2_000L * i + 1_000 + i % 7, 1);
      }
      s.threadEnd(2_000L * pairs + 5_000);
      w.close(2_000L * pairs + 5_000);
    }
    Path out = tmp.resolve("long.otf2");
    Cli.Result r = Cli.run("export", trace.toString(), "--format", "otf2", "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(Files.size(out.resolve("traces/1.evt")) > 2 * 1024 * 1024, "several chunks");
    Otf2Print.Output events = Otf2Print.run(out.resolve("traces.otf2"));
    assertEquals(0, events.exit(), events.err());
    assertTrue(events.err().isEmpty(), events.err());
    long enters = events.lines().stream().filter(l -> l.startsWith("ENTER ")).count();
    long leaves = events.lines().stream().filter(l -> l.startsWith("LEAVE ")).count();
    assertEquals(pairs, enters);
    assertEquals(pairs, leaves);
    String last =
        events.lines().stream().filter(l -> l.startsWith("THREAD_END ")).findFirst().orElseThrow();
    assertTrue(
        last.contains(Long.toString(1_700_000_000_000_000_000L + 2_000L * pairs + 5_000)), last);
    Otf2Print.Output defs = Otf2Print.run(out.resolve("traces.otf2"), "-G");
    assertEquals(0, defs.exit(), defs.err());
    assertTrue(defs.lines().stream().anyMatch(l -> l.contains("\"" + longName + "\"")));
  }

  @Test
  void needsAnEmptyOutputDirectoryAndNoChromeOptions() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("trace"));
    Cli.Result r = Cli.run("export", trace.toString(), "--format", "otf2");
    assertEquals(ExitCodes.BAD_INPUT, r.exit(), r.toString());
    assertEquals("weft: --format otf2 writes a directory: give it with -o DIR\n", r.err());
    r = Cli.run("export", trace.toString(), "--format", "otf2", "-o", "x", "--threads", "main");
    assertEquals(ExitCodes.BAD_INPUT, r.exit(), r.toString());
    assertEquals(
        "weft: --from, --to, --threads, --kinds and --no-lock-holds apply to --format chrome"
            + " only\n",
        r.err());
    Path full = Files.createDirectories(tmp.resolve("full"));
    Files.writeString(full.resolve("x"), "");
    r = Cli.run("export", trace.toString(), "--format", "otf2", "-o", full.toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exit(), r.toString());
    assertEquals("weft: " + full + " exists and is not an empty directory\n", r.err());
  }

  /**
   * OTF2 events per location and record type, from the Weft events of each stream, by the mapping
   * in EXPORT.md: every region-like scope is an Enter and a Leave (open ones are left at the
   * thread's end); pool workers begin and end their pool's thread team once.
   */
  private static Map<Long, Map<String, Long>> expected(Path dir) {
    Map<Long, Map<String, Long>> expected = new TreeMap<>();
    try (Trace t = Trace.open(dir)) {
      for (int stream : t.streamIds()) {
        Map<String, Long> m = new TreeMap<>();
        StreamCursor c = t.stream(stream);
        boolean mounted = false;
        while (c.next()) {
          EventKind k = c.kind();
          if (k == EventKind.VTHREAD_MOUNT || k == EventKind.VTHREAD_UNMOUNT) {
            mounted = k == EventKind.VTHREAD_MOUNT;
          }
          if (mounted && (k == EventKind.THREAD_BEGIN || k == EventKind.THREAD_END)) {
            continue; // a virtual thread's, on its carrier
          }
          switch (k) {
            case ENTER:
            case FORK:
            case TASK_BEGIN:
            case LOCK_REQUEST:
            case JOIN_WAIT_ENTER:
            case BARRIER_ENTER:
            case WAIT_ENTER:
            case SPIN_ENTER:
            case HELP_ENTER:
              m.merge("ENTER", 1L, Long::sum);
              m.merge("LEAVE", 1L, Long::sum);
              break;
            default:
              break;
          }
          String record =
              switch (k) {
                case FORK -> "THREAD_FORK";
                case JOIN -> "THREAD_JOIN";
                case TASK_CREATE -> "THREAD_TASK_CREATE";
                case TASK_BEGIN -> "THREAD_TASK_SWITCH";
                case TASK_END -> "THREAD_TASK_COMPLETE";
                case LOCK_ACQUIRED ->
                    (c.get(Field.FLAGS) & (LockFlags.FAILED | LockFlags.ABORTED)) == 0
                        ? "THREAD_ACQUIRE_LOCK"
                        : null;
                case LOCK_RELEASED -> "THREAD_RELEASE_LOCK";
                case THREAD_CREATE -> "THREAD_CREATE";
                case THREAD_BEGIN -> "THREAD_BEGIN";
                case THREAD_END -> "THREAD_END";
                case MEASUREMENT_ON, MEASUREMENT_OFF -> "MEASUREMENT_ON_OFF";
                default -> null;
              };
          if (record != null) {
            m.merge(record, 1L, Long::sum);
          }
        }
        ThreadDef def = t.definitions().thread(stream);
        if (def != null && def.pool() != 0) {
          m.put("THREAD_TEAM_BEGIN", 1L);
          m.put("THREAD_TEAM_END", 1L);
        }
        expected.put((long) stream, m);
      }
    }
    return expected;
  }
}
