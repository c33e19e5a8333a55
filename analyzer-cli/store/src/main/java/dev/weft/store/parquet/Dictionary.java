package dev.weft.store.parquet;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The distinct values of one or more dictionary columns ({@link Column.Type#STRING}, {@link
 * Column.Type#INT64_DICT}): rows hold their ids, each column chunk gets a dictionary page of the
 * values its rows use. Values are only appended, by the thread filling the rows; a row group handed
 * to the encoding thread carries a {@link #view()} of the values at that time.
 */
public final class Dictionary {
  private final boolean strings;
  private final Map<Object, Integer> ids = new HashMap<>();
  private byte[][] utf8 = new byte[16][];
  private long[] longs = new long[16];
  private int size;

  private Dictionary(boolean strings) {
    this.strings = strings;
  }

  /** A dictionary of strings (UTF-8 byte arrays with logical type STRING). */
  public static Dictionary ofStrings() {
    return new Dictionary(true);
  }

  /** A dictionary of int64 values. */
  public static Dictionary ofLongs() {
    return new Dictionary(false);
  }

  boolean holdsStrings() {
    return strings;
  }

  /** The id of {@code s}, added if new. */
  public int id(String s) {
    Integer id = ids.get(s);
    if (id != null) {
      return id;
    }
    grow();
    utf8[size] = s.getBytes(StandardCharsets.UTF_8);
    ids.put(s, size);
    return size++;
  }

  /** The id of {@code v}, added if new. */
  public int id(long v) {
    Integer id = ids.get(v);
    if (id != null) {
      return id;
    }
    grow();
    longs[size] = v;
    ids.put(v, size);
    return size++;
  }

  /**
   * Adds {@code s} as a new value even if it is there already (for values kept by another key,
   * whose ids must match another dictionary's); returns its id.
   */
  public int add(String s) {
    grow();
    utf8[size] = s.getBytes(StandardCharsets.UTF_8);
    ids.putIfAbsent(s, size);
    return size++;
  }

  /** Adds {@code v} as a new value even if it is there already; returns its id. */
  public int add(long v) {
    grow();
    longs[size] = v;
    ids.putIfAbsent(v, size);
    return size++;
  }

  public int size() {
    return size;
  }

  private void grow() {
    if (size == utf8.length) {
      utf8 = Arrays.copyOf(utf8, size * 2);
      longs = Arrays.copyOf(longs, size * 2);
    }
  }

  /** The values so far: the arrays are replaced when they grow, never changed below the size. */
  View view() {
    return new View(utf8, longs, size);
  }

  record View(byte[][] utf8, long[] longs, int size) {}
}
