package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small trace cut at every byte offset of each of its files: reading never throws, each stream
 * yields exactly a prefix of what was written, and a stream that lost events says CUT.
 */
class TruncationTest {
  @TempDir Path tmp;

  private Path original;
  private final Map<Integer, List<Event>> written = new HashMap<>();
  private final Map<Integer, RegionDef> regions = new HashMap<>();

  @BeforeEach
  void writeSmallTrace() throws IOException {
    original = tmp.resolve("original");
    SplittableRandom r = new SplittableRandom(7);
    TraceWriter.Options options = TraceWriter.Options.defaults().withWindows(4096, 4096);
    try (TraceWriter w = TraceWriter.create(original, options)) {
      w.defineClock(new ClockDef(-5, 1_700_000_000_000_000_000L, 1));
      w.defineProcess(new ProcessDef(4242, "host", "17", "OpenJDK", 2, "java Main", "Main", ""));
      w.defineAttribute("mode", "full");
      for (int i = 1; i <= 4; i++) {
        RegionDef d =
            new RegionDef(i, ConstructKind.USER_REGION, "r" + i, "C", "m", "C.java", i, i + 2);
        w.defineRegion(d);
        regions.put(i, d);
      }
      StreamWriter big = w.openStream(1, "main", 0, 0, 0);
      StreamWriter small = w.openStream(2, "worker", ThreadDef.DAEMON, 0, 0);
      w.openStream(3, "idle", 0, 0, 0);
      long now = 0;
      for (int i = 0; i < 900; i++) {
        now += 1 + r.nextInt(40_000);
        StreamWriter s = i % 45 == 0 ? small : big;
        Event e = Writes.random(r, now, s.id());
        Writes.write(s, e.kind(), e.time(), e.fields());
        written.computeIfAbsent(s.id(), k -> new ArrayList<>()).add(e);
      }
      w.renameThread(small, now, "worker-2");
    }
    written.putIfAbsent(3, List.of());
  }

  @Test
  void eventFileCutAtEveryOffsetYieldsAPrefixAndSaysCut() throws IOException {
    Path copy = copyOf(original);
    for (int stream : List.of(1, 2, 3)) {
      Path file = TraceFiles.streamFile(copy, stream);
      byte[] bytes = Files.readAllBytes(file);
      assertTrue(bytes.length > TraceFiles.EVENTS_HEADER_SIZE);
      if (stream == 1) {
        int second = TraceFiles.EVENTS_HEADER_SIZE + 4096;
        assertEquals(TraceFiles.CODE_BLOCK, bytes[second] & 0xFF, "stream 1 crosses blocks");
      }
      List<Event> all = written.get(stream);
      int previous = Integer.MAX_VALUE;
      // From the whole file down to nothing, one byte shorter each time.
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        for (int n = bytes.length; n >= 0; n--) {
          ch.truncate(n);
          try (Trace t = Trace.openWithoutDefinitionChecks(copy)) {
            StreamCursor c = t.stream(stream);
            List<Event> read = readAll(c);
            String where = "stream " + stream + " cut at " + n;
            assertEquals(all.subList(0, read.size()), read, where);
            assertNotEquals(StreamCursor.State.CORRUPT, c.state(), where + ": " + c.problem());
            if (read.size() < all.size()) {
              assertEquals(StreamCursor.State.CUT, c.state(), where);
              assertTrue(c.problem().startsWith(file.getFileName().toString()), c.problem());
            }
            if (n == bytes.length) {
              assertEquals(StreamCursor.State.COMPLETE, c.state(), where);
              assertEquals(all.size(), read.size(), "the whole file yields every event");
            }
            assertTrue(read.size() <= previous, where + ": more events than a longer cut");
            previous = read.size();
          }
        }
      }
      Files.write(file, bytes);
      assertEquals(0, previous);
    }
  }

  @Test
  void definitionsCutAtEveryOffsetYieldAPrefixOfTheDefinitions() throws IOException {
    Path copy = copyOf(original);
    Path file = copy.resolve(TraceFiles.DEFS_FILE);
    byte[] bytes = Files.readAllBytes(file);
    for (int n = bytes.length; n >= 0; n--) {
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(n);
      }
      String where = "definitions cut at " + n;
      // Salvaging: an event file whose thread's definition was cut off is damage (a writer defines
      // a thread before it creates its file), left out and counted.
      try (Trace t = Trace.openWithoutDefinitionChecks(copy, true)) {
        Definitions d = t.definitions();
        assertEquals(n == bytes.length, d.closedCleanly(), where);
        for (RegionDef region : d.regions()) {
          assertEquals(regions.get(region.id()), region, where);
        }
        for (ThreadDef thread : d.threads()) {
          List<String> names = thread.names().stream().map(ThreadDef.Rename::name).toList();
          List<String> all = thread.stream() == 2 ? List.of("worker", "worker-2") : null;
          if (all != null) {
            assertEquals(all.subList(0, names.size()), names, where);
          }
        }
        for (int id : t.streamIds()) {
          assertTrue(d.thread(id) != null, where);
          StreamCursor c = t.stream(id);
          assertEquals(written.get(id), readAll(c), where);
          assertEquals(StreamCursor.State.COMPLETE, c.state(), where);
        }
        int missing = 3 - t.streamIds().size();
        long ignored =
            t.integrity().damage().stream().filter(w -> w.contains("no thread definition")).count();
        assertEquals(missing, ignored, where + ": " + t.integrity());
        if (n < bytes.length) {
          assertFalse(t.warnings().isEmpty(), where);
        }
      }
    }
  }

  private static List<Event> readAll(StreamCursor c) {
    List<Event> read = new ArrayList<>();
    while (c.next()) {
      read.add(c.snapshot());
    }
    return read;
  }

  private Path copyOf(Path dir) throws IOException {
    Path copy = tmp.resolve("copy");
    Files.createDirectories(copy.resolve(TraceFiles.EVENTS_DIR));
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        Files.copy(p, copy.resolve(dir.relativize(p)));
      }
    }
    return copy;
  }
}
