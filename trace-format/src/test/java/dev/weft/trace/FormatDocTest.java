package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** FORMAT.md's tables say what the code does: event codes, ids, fields, kinds, record types. */
class FormatDocTest {

  private static String format() throws IOException {
    Path doc = Path.of(System.getProperty("basedir", "."), "..", "FORMAT.md");
    return Files.readString(doc);
  }

  @Test
  void eventTableListsEveryKindWithItsCodeIdAndFields() throws IOException {
    List<String> rows = new ArrayList<>();
    Matcher m =
        Pattern.compile("(?m)^\\| (0x[0-9A-F]{2}) \\| `([a-z_]+)` \\| ([a-z_, —]+) \\|$")
            .matcher(format());
    while (m.find()) {
      rows.add(m.group(1) + " " + m.group(2) + " " + m.group(3));
    }
    List<String> expected = new ArrayList<>();
    for (EventKind k : EventKind.values()) {
      String fields =
          k.fieldCount() == 0
              ? "—"
              : java.util.stream.IntStream.range(0, k.fieldCount())
                  .mapToObj(i -> k.field(i).name().toLowerCase(Locale.ROOT))
                  .collect(Collectors.joining(", "));
      expected.add(String.format("0x%02X %s %s", k.code(), k.id(), fields));
    }
    assertEquals(expected, rows);
  }

  @Test
  void constructKindsAreListedWithTheirCodes() throws IOException {
    String doc = format().replaceAll("\\s+", " ");
    for (ConstructKind k : ConstructKind.values()) {
      assertTrue(doc.contains(k.code() + " `" + k.id() + "`"), k.toString());
    }
  }

  @Test
  void definitionRecordTypesMatchTheCode() throws IOException {
    String doc = format();
    Object[][] types = {
      {TraceFiles.DEF_STRING, "STRING"},
      {TraceFiles.DEF_CLOCK, "CLOCK"},
      {TraceFiles.DEF_PROCESS, "PROCESS"},
      {TraceFiles.DEF_REGION, "REGION"},
      {TraceFiles.DEF_THREAD, "THREAD"},
      {TraceFiles.DEF_THREAD_NAME, "THREAD_NAME"},
      {TraceFiles.DEF_POOL, "POOL"},
      {TraceFiles.DEF_OBJECT, "OBJECT"},
      {TraceFiles.DEF_DROPS, "DROPS"},
      {TraceFiles.DEF_END, "END"},
      {TraceFiles.DEF_ATTRIBUTE, "ATTRIBUTE"},
      {TraceFiles.DEF_TRACE, "TRACE"},
      {TraceFiles.DEF_STREAM_END, "STREAM_END"},
      {TraceFiles.DEF_THREAD_JVM_COUNTS, "THREAD_JVM_COUNTS"},
    };
    for (Object[] t : types) {
      String row = String.format("| 0x%02X | %-11s |", (Integer) t[0], t[1]);
      assertTrue(doc.contains(row), row);
    }
    assertTrue(doc.contains("major 1, minor 4"));
    assertEquals(1, TraceFiles.VERSION_MAJOR);
    assertEquals(4, TraceFiles.VERSION_MINOR);
  }
}
