package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.trace.ClockDef;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.TraceFormatException;
import dev.weft.trace.TraceWriter;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading the trace on a thread of its own ({@link Analyzer.Options#withThreads} 2), and computing
 * the critical path on another (3), gives the same analysis as doing all on the replaying thread
 * (1), byte for byte in the JSON document: for every mix of the synthetic trace, for a trace cut
 * short and for a damaged one (the same failure, and with salvage the same partial result). (The
 * end-to-end tests compare 1 and 3 on every test app's trace as well.)
 */
class AnalysisThreadsSamenessTest {
  @TempDir Path tmp;

  private static final Analyzer.Options SERIAL = Analyzer.Options.defaults().withThreads(1);
  private static final Analyzer.Options READ_AHEAD = Analyzer.Options.defaults().withThreads(2);
  private static final Analyzer.Options THREE = Analyzer.Options.defaults().withThreads(3);

  /** Enough events for dozens of read-ahead batches, few enough for a quick test. */
  private static final long EVENTS = 150_000;

  @Test
  void everyMixGivesTheSameAnalysis() throws IOException {
    int[][] mixes = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}, {4, 1, 1, 1}};
    for (int[] mix : mixes) {
      Path trace = tmp.resolve("mix-" + mix[0] + mix[1] + mix[2] + mix[3]);
      SyntheticTrace.write(trace, 5, EVENTS, mix);
      assertSameOnEveryThreadCount(trace, false, "\"status\" : \"complete\"");
    }
  }

  /**
   * Virtual threads on three carriers, each mounted several times on different carriers: their
   * demux onto logical streams runs on the reading thread too.
   */
  @Test
  void virtualThreadsGiveTheSameAnalysis() throws IOException {
    Path trace = tmp.resolve("vthreads");
    try (TraceWriter w = TraceWriter.create(trace, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_700_000_000_000_000_000L, 1));
      w.defineRegion(
          new RegionDef(1, ConstructKind.USER_REGION, "step", "app.Main", "run", "M.java", 5, 0));
      w.definePool(new PoolDef(1, ConstructKind.VIRTUAL_THREAD, "virtual thread scheduler", 3));
      StreamWriter[] carriers = new StreamWriter[3];
      long[] clocks = new long[carriers.length];
      for (int c = 0; c < carriers.length; c++) {
        carriers[c] = w.openStream(1 + c, "carrier-" + c, 0, 1, 0);
      }
      int vthreads = 300;
      for (int turn = 0; turn < 4; turn++) {
        for (int v = 0; v < vthreads; v++) {
          int c = (v + turn) % carriers.length;
          StreamWriter s = carriers[c];
          long t = clocks[c] += 10 + (v * 7 + turn) % 13;
          s.vthreadMount(t, 1000 + v);
          if (turn == 0) {
            w.defineCarriedThread(1000 + v, "v" + v, 0, t);
            s.threadBegin(++t);
          }
          for (int i = 0; i < 20; i++) {
            s.enter(t += 3, 1);
            s.exit(t += 2 + i % 5, 1);
          }
          if (turn == 3) {
            s.threadEnd(++t);
          }
          s.vthreadUnmount(++t, 1000 + v);
          clocks[c] = t;
        }
      }
      long end = 0;
      for (long t : clocks) {
        end = Math.max(end, t);
      }
      w.close(end + 1);
    }
    assertSameOnEveryThreadCount(trace, false, "\"v299\"");
  }

  @Test
  void aTraceCutShortGivesTheSameCut() throws IOException {
    Path trace = tmp.resolve("cut");
    SyntheticTrace.write(trace, 4, EVENTS, new int[] {4, 1, 1, 1});
    List<Path> files = eventFiles(trace);
    cut(files.get(1), 0.5);
    cut(files.get(3), 0.7);
    assertSameOnEveryThreadCount(trace, false, "\"status\" : \"cut\"");
  }

  @Test
  void aDamagedTraceFailsTheSameAndSalvagesTheSame() throws IOException {
    Path trace = tmp.resolve("damaged");
    SyntheticTrace.write(trace, 4, EVENTS, new int[] {4, 1, 1, 1});
    List<Path> files = eventFiles(trace);
    overwrite(files.get(2), 0.4, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
    overwrite(files.get(0), 0.6, new byte[] {0, 0});
    String serialFailure = failure(trace, SERIAL);
    assertEquals(serialFailure, failure(trace, READ_AHEAD));
    assertEquals(serialFailure, failure(trace, THREE));
    assertSameOnEveryThreadCount(trace, true, "\"status\" : \"partial\"");
  }

  @Test
  void automaticUsesThreadsOnlyWhereTheyPay() throws IOException {
    Path small = tmp.resolve("small");
    SyntheticTrace.write(small, 3, 20_000, new int[] {1, 1, 1, 1});
    Path large = tmp.resolve("large");
    SyntheticTrace.write(large, 3, 800_000, new int[] {1, 1, 1, 1});
    assertTrue(bytes(small) < Analyzer.READ_AHEAD_BYTES);
    assertTrue(bytes(large) >= Analyzer.READ_AHEAD_BYTES);
    // Either way the result is the same; which way was taken shows in the threads' names.
    assertEquals(json(small, SERIAL), json(small, Analyzer.Options.defaults()));
    assertEquals(
        List.of(0L, 0L), analysisThreadsDuring(small), "a small trace: the calling thread alone");
    assertEquals(
        List.of(1L, 1L),
        analysisThreadsDuring(large),
        "a large trace on a machine with more than one core: a reader and the critical path");
  }

  /**
   * The reader threads and critical-path threads seen while analysing {@code trace} with the
   * default options (looked at when the first wait is handed out, in the middle of the replay).
   */
  private static List<Long> analysisThreadsDuring(Path trace) {
    assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "automatic: threads on 2+ cores");
    List<Long> seen = new ArrayList<>();
    Analyzer.analyze(
        trace,
        Analyzer.Options.defaults()
            .withWaits(
                w -> {
                  if (seen.isEmpty()) {
                    Set<Thread> live = Thread.getAllStackTraces().keySet();
                    seen.add(named(live, "weft-trace-reader"));
                    seen.add(named(live, "weft-critical-path"));
                  }
                }));
    return seen;
  }

  private static long named(Set<Thread> threads, String name) {
    return threads.stream().filter(t -> t.isAlive() && t.getName().equals(name)).count();
  }

  /**
   * Analysing {@code trace} (salvaging it or not) on 1, 2 and 3 threads gives the same JSON, and it
   * contains {@code expected}.
   */
  private static void assertSameOnEveryThreadCount(Path trace, boolean salvage, String expected) {
    String serial = json(trace, SERIAL.withSalvage(salvage));
    assertTrue(serial.contains(expected), serial.substring(0, 200));
    assertEquals(serial, json(trace, READ_AHEAD.withSalvage(salvage)), trace + ", 2 threads");
    assertEquals(serial, json(trace, THREE.withSalvage(salvage)), trace + ", 3 threads");
  }

  /** The one-line failure of analysing the damaged {@code trace}. */
  private static String failure(Path trace, Analyzer.Options options) {
    return assertThrows(TraceFormatException.class, () -> Analyzer.analyze(trace, options))
        .getMessage();
  }

  private static String json(Path trace, Analyzer.Options options) {
    return AnalysisJson.toJson(Analyzer.analyze(trace, options));
  }

  private static List<Path> eventFiles(Path trace) throws IOException {
    try (Stream<Path> s = Files.list(trace.resolve("events"))) {
      List<Path> files = new ArrayList<>(s.sorted().toList());
      assertTrue(files.size() >= 3, files.toString());
      return files;
    }
  }

  private static long bytes(Path trace) throws IOException {
    long n = 0;
    for (Path f : eventFiles(trace)) {
      n += Files.size(f);
    }
    return n;
  }

  /** Cuts {@code file} at {@code keep} of its events' bytes (not of its zero tail). */
  private static void cut(Path file, double keep) throws IOException {
    long at = (long) (dataEnd(file) * keep) + 7;
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
      c.truncate(at);
    }
  }

  /** Overwrites {@code file} with {@code bytes} at {@code at} of its events' bytes. */
  private static void overwrite(Path file, double at, byte[] bytes) throws IOException {
    long offset = (long) (dataEnd(file) * at);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      f.write(bytes);
    }
  }

  /** Where an event file's written bytes end: the writer leaves zeros after them. */
  private static long dataEnd(Path file) throws IOException {
    byte[] b = Files.readAllBytes(file);
    int end = b.length;
    while (end > 0 && b[end - 1] == 0) {
      end--;
    }
    return end;
  }
}
