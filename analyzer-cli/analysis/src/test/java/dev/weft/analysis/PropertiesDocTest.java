package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** PROPERTIES.md and the report explanations come from the property metadata, not a copy. */
class PropertiesDocTest {

  @Test
  void propertiesMdMatchesTheMetadata() throws Exception {
    Path md = Path.of("../PROPERTIES.md");
    String current = PropertiesDoc.currentSection(Files.readString(md, StandardCharsets.UTF_8));
    assertNotNull(current, "PROPERTIES.md has no generated section markers");
    assertEquals(
        PropertiesDoc.section(),
        current,
        "PROPERTIES.md is out of date; regenerate it with: java -cp"
            + " analyzer-cli/analysis/target/classes:trace-format/target/classes"
            + " dev.weft.analysis.PropertiesDoc analyzer-cli/PROPERTIES.md");
  }

  @Test
  void metadataIsCompleteAndLinksResolve() {
    Set<String> ids = new HashSet<>();
    for (PropertyInfo i : PropertyRegistry.infos()) {
      assertTrue(i.id().matches("[a-z]+(_[a-z]+)*"), i.id());
      assertTrue(i.parent().isEmpty() || ids.contains(i.parent()), i.id() + " parent first");
      assertTrue(ids.add(i.id()), "duplicate " + i.id());
      for (String text : new String[] {i.name(), i.info(), i.description(), i.diagnosis()}) {
        assertTrue(!text.isBlank(), i.id() + " has blank metadata");
      }
    }
    Pattern link = Pattern.compile("\\[\\[([^]]+)]]");
    for (PropertyInfo i : PropertyRegistry.infos()) {
      Matcher m = link.matcher(i.description() + i.diagnosis());
      while (m.find()) {
        assertTrue(ids.contains(m.group(1)), i.id() + " links to unknown " + m.group(1));
      }
    }
  }
}
