package dev.weft.testapps;

/** Bad command-line usage: reported as one line on stderr with exit code 2. */
public final class UsageException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; {@code message} is the whole line shown to the user. */
  public UsageException(String message) {
    super(message);
  }
}
