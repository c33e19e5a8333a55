package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A really full disk: a 1 MiB tmpfs, so the writes fail with ENOSPC wherever they happen to (event
 * files half created, windows half allocated, definitions half written). Needs Linux and the right
 * to mount; skipped otherwise ({@link DiskFullTest} simulates the same everywhere).
 */
class DiskFullTmpfsTest {
  @TempDir Path tmp;

  @Test
  void traceOnAFullTmpfsStaysReadable() throws Exception {
    Path mount = Files.createDirectories(tmp.resolve("tmpfs"));
    mount(mount);
    try {
      List<String> problems = new CopyOnWriteArrayList<>();
      Path dir = mount.resolve("trace");
      List<StreamWriter> streams = new ArrayList<>();
      int lost = 0;
      int regions = 0;
      int threads = 40;
      try (TraceWriter w =
          TraceWriter.create(
              dir,
              TraceWriter.Options.defaults()
                  .withWindows(64 * 1024, 256 * 1024)
                  .withProblemListener(problems::add))) {
        w.defineRegion(new RegionDef(1, ConstructKind.USER_REGION, "r", "C", "m", "C.java", 1, 1));
        regions = 1;
        for (int i = 0; i < threads; i++) {
          try {
            streams.add(w.openStream(100 + i, "thread-" + i, 0, 0, 0));
          } catch (TraceWriter.StreamNotOpenedException e) {
            e.lostStream().drop();
            lost++;
          }
          // Each thread defines a region (a long name: the definitions grow) and records.
          try {
            w.defineRegion(
                new RegionDef(
                    regions + 1,
                    ConstructKind.USER_REGION,
                    "x".repeat(3000) + i,
                    "C",
                    "m",
                    "",
                    0,
                    0));
            regions++;
          } catch (IOException e) {
            // not defined, so never used
          }
          for (StreamWriter s : streams) {
            for (int k = 0; k < 20_000; k++) {
              long t = 1_000L * (i * 20_000L + k + 1);
              if (k % 2 == 0) {
                s.enter(t, 1);
              } else {
                s.exit(t, 1);
              }
            }
          }
        }
      }
      assertFalse(problems.isEmpty(), "the full disk was met");
      assertTrue(lost > 0 || streams.stream().anyMatch(s -> s.dropped() > 0), "events dropped");
      try (Stream<Path> files = Files.list(dir.resolve(TraceFiles.EVENTS_DIR))) {
        for (Path f : (Iterable<Path>) files::iterator) {
          assertTrue(Files.size(f) > TraceFiles.EVENTS_HEADER_SIZE, f + " is more than a stub");
        }
      }
      assertFalse(Files.exists(dir.resolve(SpaceReserve.FILE)), "reserve deleted");
      try (Trace t = Trace.open(dir)) {
        Definitions d = t.definitions();
        assertFalse(d.cut(), "no half record in " + TraceFiles.DEFS_FILE);
        assertTrue(d.closedCleanly(), "the end record found room");
        assertEquals(regions, d.regions().size());
        Set<Long> javaIds = new HashSet<>();
        for (ThreadDef th : d.threads()) {
          assertTrue(javaIds.add(th.javaId()), "one stream per thread: " + th);
        }
        assertTrue(javaIds.size() >= threads - lost, javaIds.size() + " threads defined");
        long dropsAtClose = d.drops().values().stream().mapToLong(Long::longValue).sum();
        long dropped = streams.stream().mapToLong(StreamWriter::dropped).sum() + lost;
        assertEquals(dropped, dropsAtClose, "every drop is in the definitions");
        TraceVerifier.VerifyReport report = TraceVerifier.verify(t);
        assertTrue(report.ok(), report.errors().toString());
      }
    } finally {
      run("umount", "-l", mount.toString()); // lazily: the windows stay mapped until collected
    }
  }

  private static void mount(Path dir) throws Exception {
    assumeTrue(
        System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux"),
        "tmpfs is Linux's");
    String out = run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir.toString());
    assumeTrue(out == null, "cannot mount a tmpfs (needs root and mount rights): " + out);
  }

  /** Runs a command; null when it succeeded, else what it said. */
  private static String run(String... command) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return e.getMessage();
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return "timed out";
    }
    return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out;
  }
}
