package dev.weft.store;

import java.io.IOException;

/** A store that cannot be read or written as asked, in one line that names the file. */
public final class StoreException extends IOException {
  public StoreException(String message) {
    super(message);
  }

  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
