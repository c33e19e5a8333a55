package dev.weft.api;

/** An entered user region; {@link #close()} exits it. Never throws. */
public final class Region implements AutoCloseable {
  static final Region NONE = new Region();

  private Region() {}

  /** Exits the region. */
  @Override
  public void close() {}
}
