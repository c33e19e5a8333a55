package dev.weft.trace.pairing;

/** How the open instances of one construct relate to the others open on the same thread. */
public enum Nesting {
  /**
   * Scoped: opened and closed like brackets on one stack with the other nested constructs; a close
   * ends the innermost open instance with its key, and whatever was opened inside it.
   */
  NESTED,
  /**
   * Held side by side, in any order, counted per key (re-entry adds one, a close takes one): the
   * instance ends when its count is back to zero.
   */
  COUNTED,
  /** At most one open at a time, beside the nested ones (a carrier runs one virtual thread). */
  SINGLE
}
