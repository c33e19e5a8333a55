package dev.weft.cli;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** How a report is printed: for people, for programs, or as a page for a browser. */
public enum ReportFormat {
  /** Aligned text for a terminal. */
  TEXT,
  /** JSON: a stable contract for scripts and CI. */
  JSON,
  /** One self-contained HTML page (see REPORT.md); only for {@code analyze} and {@code diff}. */
  HTML;

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Reads a {@code --format} value that must be one of {@code allowed}, so that a command accepts
   * only the formats it can write.
   */
  static ReportFormat parse(String value, ReportFormat... allowed) {
    for (ReportFormat f : allowed) {
      if (f.name().equalsIgnoreCase(value.strip())) {
        return f;
      }
    }
    List<String> names = new ArrayList<>();
    for (ReportFormat f : allowed) {
      names.add(f.toString());
    }
    throw new TypeConversionException(
        "'"
            + value
            + "' is not a format of this command (formats: "
            + String.join(", ", names)
            + ")");
  }

  /** {@code text} or {@code json}: converter and completion candidates for picocli. */
  static final class TextOrJson implements ITypeConverter<ReportFormat>, Iterable<String> {
    @Override
    public ReportFormat convert(String value) {
      return parse(value, TEXT, JSON);
    }

    @Override
    public Iterator<String> iterator() {
      return List.of("text", "json").iterator();
    }
  }

  /** {@code text}, {@code json} or {@code html}: converter and completion candidates. */
  static final class TextJsonOrHtml implements ITypeConverter<ReportFormat>, Iterable<String> {
    @Override
    public ReportFormat convert(String value) {
      return parse(value, TEXT, JSON, HTML);
    }

    @Override
    public Iterator<String> iterator() {
      return List.of("text", "json", "html").iterator();
    }
  }
}
