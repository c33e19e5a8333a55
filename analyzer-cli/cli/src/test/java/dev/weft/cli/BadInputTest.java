package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input: exit 2 and exactly one line on stderr, never a stack trace. */
class BadInputTest {
  @TempDir Path tmp;

  static void assertOneLineError(Cli.Result r, String expected) {
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    String line = r.errLines().get(0);
    assertTrue(line.startsWith("weft: "), line);
    assertTrue(line.contains(expected), "expected '" + expected + "' in: " + line);
    assertFalse(r.err().contains("\tat "), r.err());
    assertFalse(r.err().contains("Exception"), r.err());
  }

  @ParameterizedTest
  @ValueSource(strings = {"print", "summary", "export", "verify"})
  void nonexistentDirectory(String command) {
    Path missing = tmp.resolve("no-such-trace");
    assertOneLineError(Cli.run(command, missing.toString()), missing + ": no such trace directory");
  }

  @ParameterizedTest
  @ValueSource(strings = {"print", "summary", "export", "verify"})
  void aFileThatIsNotATrace(String command) throws Exception {
    Path file = Files.writeString(tmp.resolve("notes.txt"), "hello");
    assertOneLineError(Cli.run(command, file.toString()), "not a Weft trace");
  }

  @ParameterizedTest
  @ValueSource(strings = {"print", "summary", "export", "verify"})
  void aDirectoryThatIsNotATrace(String command) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("empty"));
    assertOneLineError(Cli.run(command, dir.toString()), "not a Weft trace (no defs.wdf)");
    Files.writeString(dir.resolve("defs.wdf"), "this is not a definitions file at all");
    assertOneLineError(Cli.run(command, dir.toString()), "not a Weft trace (bad magic)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"print", "summary", "export", "verify"})
  void corruptDefinitions(String command) throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("t"));
    Path defs = trace.resolve("defs.wdf");
    byte[] header = Arrays.copyOf(Files.readAllBytes(defs), 16);
    // A REGION record whose name refers to string 99, which was never defined.
    byte[] record = {0x04, 0x08, 0x01, 0x01, 0x63, 0, 0, 0, 0, 0};
    byte[] bytes = Arrays.copyOf(header, header.length + record.length);
    System.arraycopy(record, 0, bytes, header.length, record.length);
    Files.write(defs, bytes);
    assertOneLineError(Cli.run(command, trace.toString()), "defs.wdf: corrupt at byte 16");
  }

  @ParameterizedTest
  @ValueSource(strings = {"print", "summary", "export"})
  void corruptEventStream(String command) throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("t"));
    // Stream 2's first event starts after the file header (32) and the block header (13).
    try (RandomAccessFile f =
        new RandomAccessFile(trace.resolve("events/000002.wev").toFile(), "rw")) {
      f.seek(45);
      f.write(0xEE);
    }
    Cli.Result r =
        command.equals("export")
            ? Cli.run(command, trace.toString(), "-o", tmp.resolve("out.json").toString())
            : Cli.run(command, trace.toString());
    // The stream's one block is covered by the checksum its STREAM_END record holds.
    assertOneLineError(r, "damaged trace: 000002.wev: block at byte 32: checksum mismatch");
  }

  @Test
  void unknownOptionNamesTheHelp() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("t"));
    Cli.Result r = Cli.run("summary", trace.toString(), "--frobnicate");
    assertOneLineError(r, "Unknown option: '--frobnicate'");
    assertTrue(r.err().contains("(see 'weft summary --help')"), r.err());
  }

  @Test
  void aMistypedCommandOrOptionGetsTheNearestName() throws Exception {
    assertOneLineError(
        Cli.run("analyse", "x"), "'analyse' is not a weft command; did you mean 'analyze'?");
    Path trace = TestTraces.sample(tmp.resolve("t"));
    assertOneLineError(
        Cli.run("summary", "--formt", "json", trace.toString()), "did you mean '--format'?");
    // Swapped letters are one typo; only the unknown word is named, not the value after it.
    assertOneLineError(
        Cli.run("analyze", trace.toString(), "--fromat", "json"),
        "Unknown option: '--fromat'; did you mean '--format'? (see 'weft analyze --help')");
    assertOneLineError(
        Cli.run("print", trace.toString(), "--form", "1s"),
        "Unknown option: '--form'; did you mean '--from'?");
    // The mistyped option is named although its value, taken for the PID, failed first.
    assertOneLineError(
        Cli.run("attach", "--duraton", "5s"),
        "Unknown option: '--duraton'; did you mean '--duration'?");
  }

  @Test
  void missingParameter() {
    assertOneLineError(Cli.run("print"), "Missing required parameter: 'TRACE'");
  }

  @Test
  void unknownSubcommand() {
    assertOneLineError(Cli.run("frobnicate"), "frobnicate");
  }

  @Test
  void badEnumValue() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("t"));
    assertOneLineError(Cli.run("summary", trace.toString(), "--format", "xml"), "--format");
  }

  @Test
  void unwritableOutput() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("t"));
    Path out = tmp.resolve("no-such-dir").resolve("s.json");
    assertOneLineError(
        Cli.run("summary", trace.toString(), "-o", out.toString()), "cannot write " + out);
  }

  @ParameterizedTest
  @ValueSource(strings = {"print", "summary", "export"})
  void salvageReadsTheValidPartAndSaysPartial(String command) throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("t"));
    try (RandomAccessFile f =
        new RandomAccessFile(trace.resolve("events/000002.wev").toFile(), "rw")) {
      f.seek(45);
      f.write(0xEE);
    }
    Path out = tmp.resolve("out.json");
    Cli.Result r =
        command.equals("export")
            ? Cli.run(command, trace.toString(), "--salvage", "-o", out.toString())
            : Cli.run(command, trace.toString(), "--salvage");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(
        r.err().contains("weft: warning: partial: 000002.wev: block at byte 32: checksum mismatch"),
        r.err());
    assertFalse(r.err().contains("\tat "), r.err());
    if (command.equals("summary")) {
      assertTrue(r.out().contains("partial: 000002.wev"), r.out());
    }
  }

  @Test
  void salvagedSummaryJsonSaysPartial() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("t"));
    try (RandomAccessFile f =
        new RandomAccessFile(trace.resolve("events/000002.wev").toFile(), "rw")) {
      f.seek(45);
      f.write(0xEE);
    }
    Cli.Result r = Cli.run("summary", trace.toString(), "--salvage", "--format", "json");
    assertEquals(0, r.exit(), r.toString());
    com.fasterxml.jackson.databind.JsonNode json =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
    assertEquals("partial", json.get("status").asText());
    assertTrue(json.get("status_detail").asText().contains("events lost"), r.out());
  }

  @Test
  void salvagedAnalysisIsPartialAndFailsCheck() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("t"));
    try (RandomAccessFile f =
        new RandomAccessFile(trace.resolve("events/000002.wev").toFile(), "rw")) {
      f.seek(45);
      f.write(0xEE);
    }
    assertOneLineError(Cli.run("analyze", trace.toString()), "damaged trace: 000002.wev");
    Path json = tmp.resolve("partial.json");
    Cli.Result r =
        Cli.run(
            "analyze", trace.toString(), "--salvage", "--format", "json", "-o", json.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.err().contains("weft: warning: partial: partial: 000002.wev"), r.err());
    com.fasterxml.jackson.databind.JsonNode doc =
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
    assertEquals("partial", doc.get("status").asText());
    assertTrue(doc.get("status_detail").asText().contains("checksum mismatch"), doc.toString());
    Cli.Result text = Cli.run("analyze", trace.toString(), "--salvage");
    assertTrue(text.out().contains("partial"), text.out());

    Cli.Result check = Cli.run("check", json.toString(), "--baseline", json.toString());
    assertEquals(1, check.exit(), check.toString());
    assertTrue(
        check.out().contains("FAIL  current analysis is partial: partial: 000002.wev"),
        check.out());
    assertTrue(check.out().contains("FAIL  baseline analysis is partial"), check.out());
  }
}
