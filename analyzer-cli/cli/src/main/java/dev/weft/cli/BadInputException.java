package dev.weft.cli;

/**
 * The input a command was given cannot be used: a missing file, a file of the wrong kind, an option
 * value that makes no sense for this input. The message is one line, printed as {@code weft:
 * <message>}, and the command exits with {@link ExitCodes#BAD_INPUT}.
 */
public final class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A one-line message naming what is wrong (and the file, when there is one). */
  public BadInputException(String message) {
    super(message);
  }

  /** A one-line message naming what is wrong, with the cause kept for {@code WEFT_DEBUG}. */
  public BadInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
