package dev.weft.store.parquet;

/**
 * A column of a table written by {@link TableWriter}: a flat (non-nested) field.
 *
 * @param optional whether it can hold nulls (then written with definition levels), else required
 * @param dictionary the values of a dictionary column, null for the others
 */
public record Column(String name, Type type, boolean optional, Dictionary dictionary) {
  /** How a column is held in a {@link RowBlock} and written. */
  public enum Type {
    /** {@code int[]}, PLAIN INT32; no nulls. */
    INT32,
    /** {@code long[]}, PLAIN INT64; nulls in {@link RowBlock#setNull}. */
    INT64,
    /** {@code int[]} of dictionary ids (-1: null), BYTE_ARRAY with logical type STRING. */
    STRING,
    /** {@code int[]} of dictionary ids (-1: null), dictionary-encoded INT64. */
    INT64_DICT
  }

  public Column {
    if ((type == Type.STRING || type == Type.INT64_DICT) != (dictionary != null)) {
      throw new IllegalArgumentException(name + ": a dictionary goes with STRING and INT64_DICT");
    }
    if (dictionary != null && dictionary.holdsStrings() != (type == Type.STRING)) {
      throw new IllegalArgumentException(name + ": the dictionary's values are of another type");
    }
    if (type == Type.INT32 && optional) {
      throw new IllegalArgumentException(name + ": INT32 columns are required");
    }
  }

  public static Column int32(String name) {
    return new Column(name, Type.INT32, false, null);
  }

  public static Column int64(String name, boolean optional) {
    return new Column(name, Type.INT64, optional, null);
  }

  public static Column string(String name, boolean optional, Dictionary values) {
    return new Column(name, Type.STRING, optional, values);
  }

  public static Column int64Dict(String name, Dictionary values) {
    return new Column(name, Type.INT64_DICT, false, values);
  }

  /** Held as ids or ints ({@link RowBlock#ints}), else as longs ({@link RowBlock#longs}). */
  boolean heldAsInts() {
    return type != Type.INT64;
  }
}
