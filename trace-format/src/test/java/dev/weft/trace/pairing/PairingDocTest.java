package dev.weft.trace.pairing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.trace.EventKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** FORMAT.md's "Pairing" tables are the grammar: every event kind's role, every construct. */
class PairingDocTest {

  private static String section() throws IOException {
    String doc = Files.readString(Path.of(System.getProperty("basedir", "."), "..", "FORMAT.md"));
    int from = doc.indexOf("\n## Pairing\n");
    int to = doc.indexOf("\n## ", from + 1);
    return doc.substring(from, to < 0 ? doc.length() : to);
  }

  private static List<String> rows(String section, String firstCell) {
    List<String> rows = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^\\| " + firstCell + " \\|.*\\|$").matcher(section);
    while (m.find()) {
      rows.add(m.group());
    }
    return rows;
  }

  private static String field(dev.weft.trace.Field f) {
    return f == null ? null : f.name().toLowerCase(Locale.ROOT);
  }

  @Test
  void everyEventKindIsListedWithItsRole() throws IOException {
    List<String> expected = new ArrayList<>();
    for (EventKind k : EventKind.values()) {
      Construct closes = Construct.closedBy(k);
      Construct opens = Construct.openedBy(k);
      List<String> constructs = new ArrayList<>();
      if (closes != null) {
        constructs.add(closes.id());
      }
      if (opens != null) {
        constructs.add(opens.id());
      }
      Construct keyed = closes != null ? closes : opens;
      String key =
          keyed == null
              ? "—"
              : field(keyed.key())
                  + (keyed.secondKey() == null ? "" : ", " + field(keyed.secondKey()));
      expected.add(
          "| `"
              + k.id()
              + "` | "
              + Construct.role(k).text()
              + " | "
              + (constructs.isEmpty() ? "—" : String.join(", ", constructs))
              + " | "
              + key
              + " |");
    }
    assertEquals(String.join("\n", expected), String.join("\n", rows(section(), "`[a-z_]+`")));
  }

  @Test
  void everyConstructIsListedWithItsRule() throws IOException {
    List<String> expected = new ArrayList<>();
    for (Construct c : Construct.values()) {
      expected.add(
          "| "
              + c.id()
              + " | `"
              + c.opener().id()
              + "` | `"
              + c.closer().id()
              + "` | "
              + field(c.key())
              + (c.secondKey() == null ? "" : ", " + field(c.secondKey()))
              + " | "
              + c.nesting().name().toLowerCase(Locale.ROOT)
              + " | "
              + (c.note().isEmpty() ? "—" : c.note())
              + " |");
    }
    assertEquals(
        String.join("\n", expected), String.join("\n", rows(section(), "[a-z_]+ \\| `[a-z_]+`")));
  }
}
