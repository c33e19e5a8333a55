package dev.weft.agent.record;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The agent's only way to speak to the host's terminal: at most one problem line on stderr per JVM
 * (plus the optional "recording to" line), each starting with {@code "weft: "}. Nothing ever goes
 * to stdout.
 */
public final class Messages {
  private static final AtomicBoolean problemTold = new AtomicBoolean();

  private Messages() {}

  /** Prints {@code "weft: " + line} unless a problem was already told. Never throws. */
  public static void problemOnce(String line) {
    if (problemTold.compareAndSet(false, true)) {
      print(line);
    }
  }

  /** Prints an informational line (the "recording to" announcement). Never throws. */
  public static void info(String line) {
    print(line);
  }

  private static void print(String line) {
    try {
      System.err.println("weft: " + oneLine(line));
    } catch (Throwable ignored) {
      // stderr closed or broken: nothing more can be done.
    }
  }

  /** Collapses line breaks so that the message stays one line. */
  static String oneLine(String s) {
    return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ');
  }
}
