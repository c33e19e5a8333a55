package dev.weft.cli;

import dev.weft.report.TextReport;
import java.io.Console;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Whether the JVM's standard output is an interactive terminal (colours are only used then), and
 * how wide text for it should be.
 */
final class Terminal {
  /** Width of text when stdout is not a terminal and {@code COLUMNS} is not set. */
  static final int DEFAULT_COLUMNS = 80;

  private Terminal() {}

  /**
   * Columns for text on the command's stdout: {@code COLUMNS} when set to a number; else the
   * terminal's width when stdout is one (asked of {@code stty}); else {@value #DEFAULT_COLUMNS}.
   */
  static int columns(WeftCommand root) {
    return columns(root.env("COLUMNS"), root.stdoutIsTerminal() ? Terminal::sttyColumns : () -> -1);
  }

  /**
   * {@link #columns(WeftCommand)} within the widths text layouts support ({@value
   * TextReport#MIN_WIDTH} to {@value TextReport#MAX_WIDTH}).
   */
  static int textWidth(WeftCommand root) {
    return Math.max(TextReport.MIN_WIDTH, Math.min(TextReport.MAX_WIDTH, columns(root)));
  }

  /**
   * Prints {@code prefix} and {@code text}, wrapped at spaces to {@code width} columns,
   * continuation lines indented as far as the prefix; a word longer than a line is not broken.
   * Escape codes take no columns.
   */
  static void wrap(java.io.PrintWriter out, String prefix, String text, int width) {
    StringBuilder line = new StringBuilder(prefix);
    int shown = Style.visibleLength(prefix);
    boolean first = true;
    for (String word : text.split(" ")) {
      int w = Style.visibleLength(word);
      if (!first && shown + 1 + w > width) {
        out.println(line);
        line = new StringBuilder(" ".repeat(prefix.length()));
        shown = prefix.length();
        first = true;
      }
      if (!first) {
        line.append(' ');
        shown++;
      }
      line.append(word);
      shown += w;
      first = false;
    }
    out.println(line);
  }

  /** As {@link #columns(WeftCommand)}: {@code ttyColumns} gives the terminal's width, or -1. */
  static int columns(String columnsEnv, java.util.function.IntSupplier ttyColumns) {
    if (columnsEnv != null) {
      try {
        int n = Integer.parseInt(columnsEnv.trim());
        if (n > 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // Not a number: as if unset.
      }
    }
    int tty = ttyColumns.getAsInt();
    return tty > 0 ? tty : DEFAULT_COLUMNS;
  }

  /**
   * The controlling terminal's width from {@code stty size} (shells seldom export {@code COLUMNS}),
   * or -1 when there is none or it does not answer within a second.
   */
  private static int sttyColumns() {
    File tty = new File("/dev/tty");
    if (!tty.exists()) {
      return -1;
    }
    try {
      Process p =
          new ProcessBuilder("stty", "size")
              .redirectInput(tty)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(1, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      String[] rowsCols =
          new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
              .trim()
              .split(" ");
      return rowsCols.length == 2 ? Integer.parseInt(rowsCols[1]) : -1;
    } catch (IOException | NumberFormatException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /**
   * True when stdout is a terminal. On JDK 17-21 {@link System#console()} exists only then; JDK 22+
   * always returns a console and says through {@code Console.isTerminal()}.
   */
  static boolean stdoutIsTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (NoSuchMethodException e) {
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }
}
