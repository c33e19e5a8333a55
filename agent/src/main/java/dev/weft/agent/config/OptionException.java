package dev.weft.agent.config;

/** A bad agent option; the message is one line meant for the user (without the "weft: " prefix). */
public final class OptionException extends Exception {
  private static final long serialVersionUID = 1L;

  public OptionException(String message) {
    super(message, null, false, false);
  }
}
