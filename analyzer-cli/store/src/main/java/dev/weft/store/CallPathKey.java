package dev.weft.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The store's {@code callpath_key}: a 64-bit hash of a call path's readable frames ({@code "name @
 * File.java:12"}, outermost first), so that the same code has the same key in every run, whatever
 * ids the trace gave its regions. The first 8 bytes (big-endian) of the SHA-256 of the frames
 * joined by {@code '\n'} in UTF-8; the empty call path (outside any recorded region) hashes the
 * empty string.
 */
public final class CallPathKey {
  private CallPathKey() {}

  /** The key of a call path. */
  public static long of(List<String> frames) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    byte[] d = sha.digest(String.join("\n", frames).getBytes(StandardCharsets.UTF_8));
    long k = 0;
    for (int i = 0; i < 8; i++) {
      k = (k << 8) | (d[i] & 0xFF);
    }
    return k;
  }

  /** The readable form stored in {@code callpath}: the frames joined by {@code " > "}. */
  public static String text(List<String> frames) {
    return String.join(" > ", frames);
  }
}
