package dev.weft.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Colours for the text report of {@code weft analyze} and {@code weft demo}, added to the laid-out
 * text line by line: the report is wrapped to the terminal's width first, and escape codes take no
 * columns, so colouring afterwards cannot change where lines break.
 */
final class TextReportColors {
  /** A row of the property tree: indented id, duration, share; the share is the first "d.dd%". */
  private static final Pattern TREE_ROW = Pattern.compile("^ {2,}[a-z0-9_]+ .*? (\\d+\\.\\d\\d)%");

  private static final Pattern STATUS = Pattern.compile("^  (PARTIAL|DAMAGED|CUT|ATTACHED): .*");

  private TextReportColors() {}

  /** {@code report} with headings bold, worst properties red, hints cyan, nil rows dim. */
  static String apply(String report, Style style) {
    if (!style.enabled()) {
      return report;
    }
    StringBuilder b = new StringBuilder(report.length() + 256);
    boolean inTree = false;
    boolean inStatus = false;
    for (String line : report.split("\n", -1)) {
      if (b.length() > 0) {
        b.append('\n');
      }
      if (line.isEmpty()) {
        inTree = false;
        b.append(line);
        continue;
      }
      // A status line's wrapped continuation is indented past its label.
      boolean continuation = line.startsWith("     ") && inStatus;
      inStatus = STATUS.matcher(line).matches() || continuation;
      if (!Character.isWhitespace(line.charAt(0))) {
        // Headings (and their wrapped continuations) start at column 0; nothing else does.
        inTree = line.equals("Properties (inclusive)");
        b.append(style.bold(line));
      } else if (line.startsWith("== ")) {
        b.append(style.bold(style.red(line)));
      } else if (inStatus) {
        b.append(style.yellow(line));
      } else if (line.startsWith("   what to do: ")) {
        b.append("   ").append(style.cyan("what to do:")).append(line.substring(14));
      } else if (inTree && isNil(line)) {
        b.append(style.dim(line));
      } else {
        b.append(line);
      }
    }
    return b.toString();
  }

  /** A property-tree row whose percentage is zero. */
  private static boolean isNil(String line) {
    Matcher m = TREE_ROW.matcher(line);
    return m.find() && m.group(1).equals("0.00");
  }
}
