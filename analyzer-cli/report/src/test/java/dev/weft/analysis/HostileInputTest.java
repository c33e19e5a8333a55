package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.analysis.AnalysisResult.CallPathSeverity;
import dev.weft.analysis.AnalysisResult.PropertyResult;
import dev.weft.report.HtmlReport;
import dev.weft.report.TextReport;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceFormatException;
import dev.weft.trace.WaitKind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parseable but hostile input: field values up to 2^64 - 1, stream ids anywhere in the int range,
 * call paths 200,000 deep. The analysis must stay total: a result (or, for what the reader rejects,
 * a {@link TraceFormatException}), never another exception, and no array sized by a field.
 */
class HostileInputTest {
  @TempDir Path tmp;

  /** 2^64 - 1 as the reader hands out an unsigned 64-bit field. */
  private static final long MAX_U64 = -1L;

  /**
   * A thread that ends holding two locks (their releases lost, as a damaged trace has it), then
   * another that takes the second: the holder is replaced and said so (the ended thread's state had
   * been given back, and its count of held locks was left behind).
   */
  @Test
  void locksHeldByAThreadThatEndedAreTakenOverWithoutFailing() {
    TraceFixture f = TraceFixture.create(tmp.resolve("held-at-end"));
    int site = f.region("lock", ConstructKind.REENTRANT_LOCK, 10);
    f.object(7, ConstructKind.REENTRANT_LOCK, 0);
    f.object(8, ConstructKind.REENTRANT_LOCK, 0);
    StreamWriter a = f.thread("a", 0);
    StreamWriter b = f.thread("b", 0);
    a.lockRequest(10, site, 7);
    a.lockAcquired(10, 7, 0);
    a.lockRequest(20, site, 8);
    a.lockAcquired(20, 8, 0);
    a.threadEnd(30);
    b.lockRequest(40, site, 8);
    b.lockAcquired(50, 8, 0);
    b.lockReleased(60, 8);
    b.threadEnd(100);
    AnalysisResult r = Analyzer.analyze(f.close(100));
    assertTrue(
        r.notes().stream().anyMatch(n -> n.contains("recorded as held by another thread")),
        r.notes().toString());
  }

  // ---- through the reader ---------------------------------------------------------------------

  @Test
  void threadDefinitionsWithHugeStreamIdsAreAnalysed() throws IOException {
    for (long stream : new long[] {MAX_U64, 0xFFFFFFFFL, Integer.MAX_VALUE, 1_000_000_000L}) {
      Path dir = tmp.resolve("t" + Long.toUnsignedString(stream));
      TraceFixture f = TraceFixture.create(dir);
      int work = f.region("work", ConstructKind.USER_REGION, 10);
      StreamWriter a = f.thread("a", 0);
      a.enter(10, work);
      a.exit(20, work);
      f.close(100);
      // THREAD: stream, javaId, name (string 0), flags, pool, time
      appendDefinition(dir, 0x05, stream, 99, 0, 0, MAX_U64, 0);
      AnalysisResult r = analyzeOrRejected(dir);
      if (r != null) {
        assertEquals(100, Check.onThread(r, "execution", "a"));
        assertFalse(String.join("\n", r.notes()).contains("internal check"), r.notes().toString());
      }
    }
  }

  @Test
  void hugeFieldValuesNeitherThrowNorAllocate() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int work = f.region("work", ConstructKind.USER_REGION, 10);
    int fork = f.region("fork", ConstructKind.FORK_JOIN_POOL, 11);
    int await = f.region("await", ConstructKind.CYCLIC_BARRIER, 12);
    int sync = f.region("sync", ConstructKind.MONITOR, 13);
    int waitSite = f.region("wait", ConstructKind.OBJECT_WAIT, 14);
    int join = f.region("join", ConstructKind.THREAD_JOIN, 15);
    f.pool(1, "pool", Integer.MAX_VALUE);
    f.object(MAX_U64, ConstructKind.CYCLIC_BARRIER, Integer.MAX_VALUE);
    StreamWriter m = f.thread("main", 0);
    StreamWriter w = f.worker("worker", 1, 0);
    StreamWriter x = f.worker("odd-pool", -1, 0);
    m.enter(10, work);
    m.fork(20, fork, -1, -1);
    m.taskCreate(30, fork, MAX_U64, -1);
    m.taskCreate(31, fork, Long.MIN_VALUE, 1);
    w.taskBegin(40, MAX_U64);
    w.barrierEnter(50, await, MAX_U64, MAX_U64);
    m.barrierEnter(55, await, MAX_U64, MAX_U64);
    m.barrierExit(60, await, MAX_U64, MAX_U64, -1);
    w.barrierExit(65, await, MAX_U64, MAX_U64, -1);
    w.lockRequest(70, sync, MAX_U64);
    w.lockAcquired(71, MAX_U64, 0);
    m.lockRequest(72, sync, MAX_U64);
    w.lockReleased(80, MAX_U64);
    m.lockAcquired(81, MAX_U64, -1);
    m.lockReleased(82, MAX_U64);
    w.taskEnd(90, MAX_U64);
    w.taskBegin(91, Long.MIN_VALUE);
    w.waitEnter(92, waitSite, -1);
    w.waitExit(93, waitSite);
    w.taskEnd(94, Long.MIN_VALUE);
    w.taskSummary(100, fork, -1, MAX_U64, MAX_U64);
    w.taskSummary(110, fork, 1, Long.MAX_VALUE, Long.MAX_VALUE);
    x.taskSummary(100, fork, -1, MAX_U64, MAX_U64);
    m.join(120, fork, -1);
    m.joinWaitEnter(130, join, MAX_U64);
    m.joinWaitExit(140, join);
    m.threadCreate(150, work, MAX_U64);
    m.notify(160, sync, MAX_U64, -1);
    m.vthreadMount(170, MAX_U64);
    m.waitEnter(180, waitSite, WaitKind.OBJECT_WAIT);
    m.waitExit(190, waitSite);
    m.exit(200, work);
    AnalysisResult r = analyzeOrRejected(f.close(1000));
    if (r != null) {
      render(r);
      assertFalse(String.join("\n", r.notes()).contains("internal check"), r.notes().toString());
    }
    // The same trace cut off: the end of the run comes from the events alone.
    AnalysisResult cut = analyzeOrRejected(cutCopy(f.dir));
    if (cut != null) {
      render(cut);
      assertEquals(AnalysisResult.Status.CUT, cut.status());
    }
  }

  @Test
  void twoHundredThousandNestedEntersAreFoldedNotRecursedInto() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int a = f.region("a", ConstructKind.TRACED_METHOD, 10);
    int b = f.region("b", ConstructKind.TRACED_METHOD, 11);
    int sync = f.region("sync", ConstructKind.MONITOR, 12);
    StreamWriter deep = f.thread("deep", 0);
    StreamWriter other = f.thread("other", 0);
    StreamWriter late = f.thread("late", 0);
    int n = 200_000;
    other.lockRequest(1, sync, 5);
    other.lockAcquired(1, 5, 0);
    for (int i = 0; i < n; i++) {
      deep.enter(10 + i, (i & 1) == 0 ? a : b);
    }
    // Blocked at the bottom when the trace is cut, on a lock whose holder's stream ended long
    // before
    // (running, without a release): the measured wait stays, all of it waiting for the holder.
    deep.lockRequest(10 + n, sync, 5);
    late.enter(10 + n + 1000, a);
    Path dir = f.abandon();
    AnalysisResult r = analyzeOrRejected(dir);
    assertTrue(r != null, "a deep but well-formed trace is not rejected");
    int longest = 0;
    for (PropertyResult p : r.properties()) {
      for (CallPathSeverity c : p.byCallpath()) {
        longest = Math.max(longest, c.path().size());
      }
    }
    assertEquals(CallPathTree.MAX_DEPTH, longest);
    assertEquals(n + 4L, r.trace().events());
    assertEquals(1, r.trace().cut().openWaits());
    assertEquals(1000, Check.onThread(r, "monitor_contention", "deep"));
    assertEquals(1000, Check.cause(r, "lock_contention", "waiting_for_holder_ns"));
    Check.partition(r, java.util.Map.of("deep", n + 1010L, "other", 1L, "late", n + 1010L));
    assertTrue(
        r.notes().stream().anyMatch(s -> s.contains("deeper than " + CallPathTree.MAX_DEPTH)),
        r.notes().toString());
    assertEquals(
        n - (CallPathTree.MAX_DEPTH - 1),
        Check.atPath(r, "execution", deepPath(CallPathTree.MAX_DEPTH, f)),
        "everything below the fold is the folded node's");
    render(r);
    ByteArrayOutputStream page = new ByteArrayOutputStream();
    HtmlReport.write(new ObjectMapper().readTree(AnalysisJson.toJson(r)), dir, page);
    assertTrue(page.size() > 0);
  }

  private static String[] deepPath(int depth, TraceFixture f) {
    String[] p = new String[depth];
    for (int i = 0; i < depth - 1; i++) {
      p[i] = TraceFixture.label((i & 1) == 0 ? "a" : "b", (i & 1) == 0 ? 10 : 11);
    }
    p[depth - 1] = CallPathTree.FOLDED_LABEL;
    return p;
  }

  /** A document read back from a file may hold call paths of any depth: rendering is iterative. */
  @Test
  void aDeepCallPathReadFromJsonRendersAsText() throws IOException {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    f.region("a", ConstructKind.USER_REGION, 10);
    f.thread("a", 0).enter(5, 1);
    AnalysisResult r = Analyzer.analyze(f.close(10));
    List<String> path = new ArrayList<>();
    for (int i = 0; i < 200_000; i++) {
      path.add("f" + i + " @ F.java:1");
    }
    AnalysisResult deep = withBarrierPath(r, path);
    Path file = tmp.resolve("deep.json");
    Files.writeString(file, AnalysisJson.toJson(deep));
    String text = TextReport.render(AnalysisJson.read(file));
    assertTrue(text.contains("deeper levels not shown"), text);
    assertTrue(text.length() < 200_000, "output stays small: " + text.length());

    // The same depth of one recursive frame is one line.
    Collections.fill(path, "f @ F.java:1");
    Files.writeString(file, AnalysisJson.toJson(withBarrierPath(r, path)));
    String folded = TextReport.render(AnalysisJson.read(file));
    assertTrue(folded.contains("f @ F.java:1 ×200000 levels"), folded);
    assertTrue(folded.length() < 20_000, "output stays small: " + folded.length());
  }

  /** {@code r} with barrier_wait's only call path replaced by {@code path}. */
  private static AnalysisResult withBarrierPath(AnalysisResult r, List<String> path) {
    List<PropertyResult> props = new ArrayList<>();
    for (PropertyResult p : r.properties()) {
      if (p.id().equals("barrier_wait")) {
        p =
            new PropertyResult(
                p.id(),
                p.parent(),
                p.name(),
                5,
                50,
                List.of(new AnalysisResult.ThreadSeverity("a", 5)),
                List.of(new CallPathSeverity(path, 5)),
                p.causes());
      }
      props.add(p);
    }
    return new AnalysisResult(
        r.format(),
        r.status(),
        r.statusDetail(),
        r.trace(),
        r.timeNs(),
        props,
        r.regions(),
        r.notes());
  }

  // ---- the replay itself, below the reader --------------------------------------------------

  /**
   * Streams with ids anywhere in the int range, and every event kind with every field 2^64 - 1
   * (regions included), replayed straight into the engine: whatever the reader lets through.
   */
  @Test
  void replayIsTotalForAnyStreamIdAndFieldValue() throws IOException {
    Definitions defs = emptyDefinitions();
    int[] streams = {Integer.MAX_VALUE, -1, Integer.MIN_VALUE, 1_000_000_000, 0, 3};
    ThreadState[] states = new ThreadState[streams.length];
    PoolTable pools = new PoolTable(defs);
    for (int i = 0; i < streams.length; i++) {
      int pool = i % 2 == 0 ? pools.slot(-1) : -1;
      states[i] = new ThreadState(i, streams[i], "s" + streams[i], pool, 0);
      if (pool >= 0) {
        pools.addWorker(pool, i);
      }
    }
    Replay replay =
        new Replay(defs, PropertyRegistry.create(), states, pools, null, 0, Long.MIN_VALUE);
    List<long[]> events = new ArrayList<>();
    long t = 1;
    for (int round = 0; round < 3; round++) {
      for (EventKind k : EventKind.values()) {
        if (k == EventKind.THREAD_END) {
          continue;
        }
        for (int s : streams) {
          events.add(event(k, t++, s, MAX_U64));
          events.add(event(k, t++, s, Long.MIN_VALUE));
          events.add(event(k, t++, s, Integer.MAX_VALUE));
        }
      }
    }
    events.add(event(EventKind.THREAD_END, t++, streams[0], 0));
    events.add(event(EventKind.ENTER, t++, streams[0], 0)); // after its end
    events.add(event(EventKind.ENTER, t++, 12345, 1)); // a stream without a thread
    replay.run(cursor(events));
    replay.finish(t, false, stream -> stream == 0);
    AnalysisResult r =
        Results.build(
            tmp,
            defs,
            replay,
            0,
            t,
            AnalysisResult.Status.CUT,
            "cut",
            null,
            replay.eventsRead,
            0,
            new ArrayList<>(Notes.fromCounters(replay.counters)));
    render(r);
    assertEquals(events.size(), r.trace().events());
    assertEquals(1, replay.counters.eventsWithoutThread);
    assertFalse(String.join("\n", r.notes()).contains("internal check"), r.notes().toString());
  }

  /** Extreme times (the whole long range between two events) do not throw. */
  @Test
  void extremeTimesDoNotThrow() throws IOException {
    Definitions defs = emptyDefinitions();
    ThreadState[] states = {
      new ThreadState(0, 1, "a", -1, Long.MIN_VALUE), new ThreadState(1, 2, "b", -1, 0)
    };
    Replay replay =
        new Replay(
            defs,
            PropertyRegistry.create(),
            states,
            new PoolTable(defs),
            x -> {},
            Long.MIN_VALUE,
            Long.MAX_VALUE);
    List<long[]> events = new ArrayList<>();
    events.add(event(EventKind.BARRIER_ENTER, Long.MIN_VALUE + 1, 1, 7));
    events.add(event(EventKind.LOCK_REQUEST, 0, 2, 7));
    events.add(event(EventKind.BARRIER_ENTER, Long.MAX_VALUE - 1, 2, 7));
    events.add(event(EventKind.BARRIER_EXIT, Long.MAX_VALUE, 1, 7));
    replay.run(cursor(events));
    replay.finish(Long.MAX_VALUE, false, s -> false);
    render(
        Results.build(
            tmp,
            defs,
            replay,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            AnalysisResult.Status.CUT,
            "cut",
            null,
            replay.eventsRead,
            0,
            new ArrayList<>()));
  }

  // ---- helpers ----------------------------------------------------------------------------------

  /** Analyses, or returns null when the reader rejects the trace with a clean one-line error. */
  private static AnalysisResult analyzeOrRejected(Path dir) {
    try {
      return Analyzer.analyze(dir);
    } catch (TraceFormatException e) {
      assertEquals(1, e.getMessage().lines().count(), e.getMessage());
      return null;
    }
  }

  private static void render(AnalysisResult r) throws IOException {
    assertFalse(TextReport.render(r).isEmpty());
    String json = AnalysisJson.toJson(r);
    OutputStream sink = OutputStream.nullOutputStream();
    AnalysisJson.write(r, sink);
    Path file = Files.createTempFile("weft-hostile", ".json");
    try {
      Files.writeString(file, json);
      assertEquals(r, AnalysisJson.read(file));
    } finally {
      Files.delete(file);
    }
  }

  private Definitions emptyDefinitions() {
    Path dir = tmp.resolve("empty-" + System.nanoTime());
    TraceFixture f = TraceFixture.create(dir);
    f.region("r", ConstructKind.USER_REGION, 1);
    try (Trace trace = Trace.open(f.close(0))) {
      return trace.definitions();
    }
  }

  /** An event {kind ordinal, time, stream, fields...}, every field {@code value}. */
  private static long[] event(EventKind k, long t, int stream, long value) {
    long[] e = new long[3 + EventKind.MAX_FIELDS];
    e[0] = k.ordinal();
    e[1] = t;
    e[2] = stream;
    for (int i = 0; i < k.fieldCount(); i++) {
      e[3 + i] = value;
    }
    return e;
  }

  private static EventCursor cursor(List<long[]> events) {
    return new EventCursor() {
      private int i = -1;

      @Override
      public boolean next() {
        return ++i < events.size();
      }

      @Override
      public EventKind kind() {
        return EventKind.values()[(int) events.get(i)[0]];
      }

      @Override
      public long time() {
        return events.get(i)[1];
      }

      @Override
      public int stream() {
        return (int) events.get(i)[2];
      }

      @Override
      public long field(int index) {
        return events.get(i)[3 + index];
      }
    };
  }

  /** A copy of a trace directory without its END record (as if the process had been killed). */
  private Path cutCopy(Path dir) throws IOException {
    Path copy = tmp.resolve("cut-" + System.nanoTime());
    Files.createDirectories(copy.resolve("events"));
    try (var files = Files.list(dir.resolve("events"))) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.copy(p, copy.resolve("events").resolve(p.getFileName()));
      }
    }
    byte[] defs = Files.readAllBytes(dir.resolve("defs.wdf"));
    // The END record is the last: type 0x0A, length, zigzag time (here 1000: two bytes), and the
    // record's checksum (four bytes).
    int endRecord = defs.length - 8;
    assertEquals(0x0A, defs[endRecord], "END is the last record");
    Files.write(copy.resolve("defs.wdf"), java.util.Arrays.copyOf(defs, endRecord));
    return copy;
  }

  /** Appends a definition record whose fields are all varints (unsigned). */
  private static void appendDefinition(Path dir, int type, long... fields) throws IOException {
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    for (long v : fields) {
      varint(payload, v);
    }
    ByteArrayOutputStream record = new ByteArrayOutputStream();
    record.write(type);
    varint(record, payload.size());
    payload.writeTo(record);
    Files.write(dir.resolve("defs.wdf"), record.toByteArray(), StandardOpenOption.APPEND);
  }

  private static void varint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }
}
