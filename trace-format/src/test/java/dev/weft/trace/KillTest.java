package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 loses nothing that was recorded: a child JVM writes events as fast as it can and is
 * killed with SIGKILL mid-run; every event it reported written is read back, and the verifier
 * accepts the trace with a warning that it was cut.
 */
class KillTest {
  @TempDir Path tmp;

  private static final int THREADS = 3;

  /** Kill once every stream has reported this many events (many windows crossed by then). */
  private static final long ENOUGH = 200_000;

  @Test
  void everyEventReportedBeforeSigkillIsReadBack() throws Exception {
    Path dir = tmp.resolve("trace");
    Path stdout = tmp.resolve("child.out");
    Path stderr = tmp.resolve("child.err");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                KillChild.class.getName(),
                dir.toString(),
                String.valueOf(THREADS))
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    Map<Integer, Long> reported = new HashMap<>();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!enough(reported) && child.isAlive() && System.nanoTime() < deadline) {
        Thread.sleep(20);
        reported = progress(stdout);
      }
      assertTrue(child.isAlive(), "child ended early; stderr: " + Files.readString(stderr));
      assertTrue(enough(reported), "child too slow: " + reported);
    } finally {
      child.destroyForcibly(); // SIGKILL
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    }
    // Every line the child printed before it died (the file holds them all).
    reported = progress(stdout);
    assertEquals(137, child.exitValue(), "killed by SIGKILL; stderr: " + Files.readString(stderr));
    assertEquals(THREADS, reported.size(), "stderr: " + Files.readString(stderr));

    try (Trace trace = Trace.open(dir)) {
      assertFalse(trace.definitions().closedCleanly());
      for (Map.Entry<Integer, Long> e : reported.entrySet()) {
        int stream = e.getKey();
        StreamCursor c = trace.stream(stream);
        long i = 0;
        while (c.next()) {
          Event expected = KillChild.expected(stream, i);
          if (!expected.equals(c.snapshot())) {
            assertEquals(expected, c.snapshot(), "event " + i + " of stream " + stream);
          }
          i++;
        }
        assertNotEquals(StreamCursor.State.CORRUPT, c.state(), c.problem());
        assertTrue(
            i >= e.getValue(),
            "stream " + stream + ": read " + i + " events, child reported " + e.getValue());
      }
    }
    try (Trace trace = Trace.open(dir)) {
      TraceVerifier.VerifyReport report = TraceVerifier.verify(trace);
      assertTrue(report.ok(), String.join("\n", report.errors()));
      assertTrue(report.cut());
      assertTrue(
          report.warnings().stream().anyMatch(w -> w.contains("not closed cleanly")),
          String.join("\n", report.warnings()));
      long total = reported.values().stream().mapToLong(Long::longValue).sum();
      assertTrue(report.events() >= total);
      assertEquals(0, report.dropped());
    }
  }

  private static boolean enough(Map<Integer, Long> reported) {
    return reported.size() == THREADS && reported.values().stream().allMatch(n -> n >= ENOUGH);
  }

  /** The last count each stream reported; a line still being written is ignored. */
  private static Map<Integer, Long> progress(Path stdout) throws IOException {
    Map<Integer, Long> reported = new HashMap<>();
    String text = Files.readString(stdout, StandardCharsets.US_ASCII);
    for (String line : text.substring(0, text.lastIndexOf('\n') + 1).split("\n")) {
      String[] parts = line.split(" ");
      if (parts.length == 3 && parts[0].equals("written")) {
        reported.merge(Integer.parseInt(parts[1]), Long.parseLong(parts[2]), Math::max);
      }
    }
    return reported;
  }
}
