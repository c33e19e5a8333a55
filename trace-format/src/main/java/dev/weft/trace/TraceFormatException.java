package dev.weft.trace;

/**
 * A trace could not be read: not a Weft trace, a foreign or corrupt file, an unsupported version,
 * or an I/O error. The message is one line that names the file and what is wrong, fit for a CLI
 * error.
 */
public final class TraceFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TraceFormatException(String message) {
    super(message);
  }

  public TraceFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
