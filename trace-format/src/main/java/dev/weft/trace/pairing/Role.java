package dev.weft.trace.pairing;

/** What an event kind does to the constructs open on its thread. */
public enum Role {
  /** Opens one construct. */
  OPENS("opens"),
  /** Closes one construct. */
  CLOSES("closes"),
  /** Closes one construct when it is open, then opens another ({@code lock_acquired}). */
  CLOSES_AND_OPENS("closes, opens"),
  /** Ends the thread: nothing it has open can close any more. */
  ENDS("ends the thread"),
  /** Says events of this thread (or, for measurement_on, of every thread) went unrecorded. */
  GAP("gap"),
  /** Pairs with nothing on its thread. */
  INSTANT("instant");

  private final String text;

  Role(String text) {
    this.text = text;
  }

  /** The word FORMAT.md's pairing table uses. */
  public String text() {
    return text;
  }
}
