package dev.weft.export;

/** The two JSON pieces the Chrome export writes by hand: string literals and timestamps. */
public final class ChromeJson {
  private ChromeJson() {}

  /** Appends a JSON string literal. */
  public static void string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '"' || ch == '\\') {
        b.append('\\').append(ch);
      } else if (ch < 0x20) {
        b.append(String.format("\\u%04x", (int) ch));
      } else {
        b.append(ch);
      }
    }
    b.append('"');
  }

  /**
   * Appends nanoseconds as microseconds with three exact decimals ({@code 1234.567}), 0 as {@code
   * 0}: the format's time unit at nanosecond precision, never in exponent notation.
   */
  public static void micros(StringBuilder b, long nanos) {
    if (nanos == 0) {
      b.append('0');
      return;
    }
    long abs = Math.abs(nanos);
    if (nanos < 0) {
      b.append('-');
    }
    b.append(abs / 1000).append('.');
    long frac = abs % 1000;
    if (frac < 100) {
      b.append('0');
    }
    if (frac < 10) {
      b.append('0');
    }
    b.append(frac);
  }
}
