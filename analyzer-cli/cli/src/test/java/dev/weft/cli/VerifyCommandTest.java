package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyCommandTest {
  @TempDir Path tmp;
  Path trace;

  @BeforeEach
  void writeTrace() throws Exception {
    trace = TestTraces.wellFormed(tmp.resolve("trace"));
  }

  @Test
  void aWellFormedTraceIsOk() {
    Cli.Result r = Cli.run("verify", trace.toString());
    assertEquals(0, r.exit(), r.toString());
    assertEquals(List.of("OK: 28 events, 2 threads"), r.outLines());
    assertEquals("", r.err());
  }

  @Test
  void aRegionLeftOpenAtThreadEndIsNotWellFormed() throws Exception {
    // Intact bytes whose events do not pair up: a check that failed (1), not damaged input (2).
    Path open = TestTraces.sample(tmp.resolve("open"));
    Cli.Result r = Cli.run("verify", open.toString());
    assertEquals(1, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(1, r.errLines().size(), r.toString());
    String line = r.errLines().get(0);
    assertTrue(line.startsWith("weft: thread '" + TestTraces.WORKER + "' (stream 2)"), line);
    assertTrue(line.contains("thread_end with 1 construct(s) still open"), line);
    assertTrue(line.contains("region 1 'work' (Demo.java:10-20)"), line);
  }

  @Test
  void aCutTraceIsOkWithWarnings() throws Exception {
    // Drop the clean-end record (the last 5 bytes) and the last bytes of the worker's stream.
    Path defs = trace.resolve("defs.wdf");
    byte[] bytes = Files.readAllBytes(defs);
    Files.write(defs, Arrays.copyOf(bytes, bytes.length - 5));
    try (RandomAccessFile f =
        new RandomAccessFile(trace.resolve("events/000002.wev").toFile(), "rw")) {
      f.setLength(60);
    }
    Cli.Result r = Cli.run("verify", trace.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().startsWith("OK: ") && r.out().contains("threads (cut"), r.out());
    assertTrue(r.err().contains("weft: warning: trace was not closed cleanly"), r.err());
    assertTrue(r.err().contains("stream is cut: 000002.wev: file ends inside"), r.err());
    assertTrue(r.err().contains("never acquired at the cut end of the trace"), r.err());
  }

  @Test
  void aDamagedStreamIsOneLineAndExit2() throws Exception {
    try (RandomAccessFile f =
        new RandomAccessFile(trace.resolve("events/000002.wev").toFile(), "rw")) {
      f.seek(45);
      f.write(0xEE);
    }
    Cli.Result r = Cli.run("verify", trace.toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(
        List.of(
            "weft: "
                + trace
                + ": damaged trace: 000002.wev: block at byte 32: checksum mismatch (11 events"
                + " lost) (weft … --salvage reads the valid part)"),
        r.errLines());
  }
}
