package dev.weft.api;

/**
 * User regions and measurement control (POMP's {@code inst begin/end} and {@code on/off}).
 *
 * <p>Without the Weft agent every method here does nothing and costs next to nothing. With the
 * agent, the agent weaves these methods (and their call sites) so that regions and on/off are
 * recorded.
 *
 * <pre>{@code
 * try (Region r = Weft.region("assemble")) {
 *   assemble();
 * }
 * }</pre>
 */
public final class Weft {
  private Weft() {}

  /**
   * Enters a user region; closing the returned region exits it. Regions nest; close them in reverse
   * order (try-with-resources does).
   *
   * @param name the region's name as reports show it
   */
  public static Region region(String name) {
    return Region.NONE;
  }

  /**
   * Resumes recording on all threads after {@link #off()} (recording starts on unless configured
   * off).
   */
  public static void on() {}

  /** Pauses recording on all threads; events in between are not recorded, and the trace says so. */
  public static void off() {}

  /** True when the Weft agent is present and recording. */
  public static boolean isRecording() {
    return false;
  }
}
