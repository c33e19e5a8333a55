package dev.weft.cli;

/**
 * The exit codes of every {@code weft} command, in one place. {@code weft run} is the one
 * exception: it returns the exit code of the program it ran.
 */
public final class ExitCodes {
  /** The command did what was asked. */
  public static final int OK = 0;

  /** A check failed: {@code weft check} found a regression or a budget exceeded. */
  public static final int CHECK_FAILED = 1;

  /**
   * Bad usage or bad input: an unknown option, a missing or unreadable file, a corrupt trace. Weft
   * prints one line {@code weft: <message>} on stderr.
   */
  public static final int BAD_INPUT = 2;

  /** A defect in weft itself (an unexpected exception); the message says how to see the details. */
  public static final int INTERNAL_ERROR = 3;

  private ExitCodes() {}
}
