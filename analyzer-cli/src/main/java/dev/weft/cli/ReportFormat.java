package dev.weft.cli;

import java.util.Locale;

/** How a report is printed: for people or for programs. */
public enum ReportFormat {
  /** Aligned text for a terminal. */
  TEXT,
  /** JSON: a stable contract for scripts and CI. */
  JSON;

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
