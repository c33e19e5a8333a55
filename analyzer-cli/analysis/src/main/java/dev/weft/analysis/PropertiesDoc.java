package dev.weft.analysis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Generates the property reference of PROPERTIES.md from the {@link PropertyInfo} metadata, so the
 * documentation never holds a second copy of the text. The generated part lies between {@link
 * #BEGIN} and {@link #END}; the rest of the file is written by hand.
 *
 * <pre>
 * java -cp analyzer-cli/analysis/target/classes:trace-format/target/classes \
 *     dev.weft.analysis.PropertiesDoc analyzer-cli/PROPERTIES.md
 * </pre>
 */
public final class PropertiesDoc {
  static final String BEGIN =
      "<!-- BEGIN GENERATED from the @PropertyInfo metadata by dev.weft.analysis.PropertiesDoc;"
          + " do not edit by hand -->";
  static final String END = "<!-- END GENERATED -->";

  private PropertiesDoc() {}

  /** The generated section, markers included. */
  public static String section() {
    List<PropertyInfo> infos = PropertyRegistry.infos();
    StringBuilder b = new StringBuilder();
    b.append(BEGIN).append("\n\n");
    b.append("| Id | Parent | Name | What the severity measures |\n");
    b.append("|---|---|---|---|\n");
    for (PropertyInfo i : infos) {
      b.append("| [`")
          .append(i.id())
          .append("`](#")
          .append(i.id())
          .append(") | ")
          .append(i.parent().isEmpty() ? "(root)" : "`" + i.parent() + "`")
          .append(" | ")
          .append(i.name())
          .append(" | ")
          .append(i.info())
          .append(" |\n");
    }
    for (PropertyInfo i : infos) {
      b.append("\n<a id=\"").append(i.id()).append("\"></a>\n");
      b.append("### `").append(i.id()).append("`: ").append(i.name()).append("\n\n");
      b.append("Parent: ")
          .append(i.parent().isEmpty() ? "none (a root)" : link(i.parent()))
          .append(". Unit: ")
          .append(i.unit())
          .append(". ")
          .append(i.info())
          .append(".\n\n");
      b.append(links(i.description())).append("\n\n");
      b.append("**Diagnosis.** ").append(links(i.diagnosis())).append('\n');
    }
    b.append('\n').append(END);
    return b.toString();
  }

  private static String link(String id) {
    return "[`" + id + "`](#" + id + ")";
  }

  static String links(String text) {
    return text.strip().replaceAll("\\[\\[([a-z_]+)]]", "[`$1`](#$1)");
  }

  /** The generated section currently in {@code markdown}, or null when the markers are missing. */
  static String currentSection(String markdown) {
    int b = markdown.indexOf(BEGIN);
    int e = markdown.indexOf(END);
    return b < 0 || e < b ? null : markdown.substring(b, e + END.length());
  }

  /** Rewrites the generated section of the file named by {@code args[0]}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: PropertiesDoc PROPERTIES.md");
      System.exit(2);
    }
    Path file = Path.of(args[0]);
    String md = Files.readString(file, StandardCharsets.UTF_8);
    String current = currentSection(md);
    if (current == null) {
      System.err.println(file + ": no generated section markers");
      System.exit(2);
    }
    Files.writeString(file, md.replace(current, section()), StandardCharsets.UTF_8);
  }
}
