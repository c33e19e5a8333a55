package dev.weft.cli;

/**
 * ANSI colours for text output, or none. Plain escape codes rather than picocli's markup, so that
 * names from a trace (which may contain any character) are printed as they are.
 */
final class Style {
  static final Style PLAIN = new Style(false);
  static final Style ANSI = new Style(true);

  private final boolean enabled;

  private Style(boolean enabled) {
    this.enabled = enabled;
  }

  static Style of(boolean enabled) {
    return enabled ? ANSI : PLAIN;
  }

  boolean enabled() {
    return enabled;
  }

  String bold(String s) {
    return wrap("1", s);
  }

  String dim(String s) {
    return wrap("2", s);
  }

  String red(String s) {
    return wrap("31", s);
  }

  String green(String s) {
    return wrap("32", s);
  }

  String yellow(String s) {
    return wrap("33", s);
  }

  String cyan(String s) {
    return wrap("36", s);
  }

  /** A table of text lines with its first line (the column names) bold. */
  String tableHeader(String table) {
    int end = table.indexOf('\n');
    return end <= 0 ? table : bold(table.substring(0, end)) + table.substring(end);
  }

  /** Columns {@code s} takes on a terminal: its length without escape codes. */
  static int visibleLength(String s) {
    return s.replaceAll("\u001b\\[[0-9;]*m", "").length();
  }

  private String wrap(String code, String s) {
    return enabled ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
  }
}
