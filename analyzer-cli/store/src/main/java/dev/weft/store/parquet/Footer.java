package dev.weft.store.parquet;

import java.util.List;
import java.util.Map;

/** The file's footer, a Thrift compact {@code FileMetaData} (field ids from parquet.thrift). */
final class Footer {
  // parquet.thrift enum values.
  private static final int INT32 = 1;
  private static final int INT64 = 2;
  private static final int BYTE_ARRAY = 6;
  private static final int REQUIRED = 0;
  private static final int OPTIONAL = 1;
  private static final int UTF8 = 0;

  /** Written with the files' metadata: what made the file. */
  static final String CREATED_BY = "weft";

  record Group(long rows, long start, List<ChunkEncoder.Chunk> chunks) {}

  private Footer() {}

  static void write(
      List<Column> columns,
      List<Group> groups,
      Map<String, String> metadata,
      Codec codec,
      CompactWriter w) {
    long rows = groups.stream().mapToLong(Group::rows).sum();
    w.beginStruct();
    w.i32(1, 1); // version
    w.list(2, CompactWriter.STRUCT, columns.size() + 1);
    w.beginStruct().string(4, "schema").i32(5, columns.size()).endStruct();
    for (Column c : columns) {
      w.beginStruct();
      w.i32(1, physicalType(c));
      w.i32(3, c.optional() ? OPTIONAL : REQUIRED);
      w.string(4, c.name());
      if (c.type() == Column.Type.STRING) {
        w.i32(6, UTF8);
        w.beginStruct(10).beginStruct(1).endStruct().endStruct(); // LogicalType STRING
      }
      w.endStruct();
    }
    w.i64(3, rows);
    w.list(4, CompactWriter.STRUCT, groups.size());
    for (int g = 0; g < groups.size(); g++) {
      rowGroup(columns, groups.get(g), g, codec, w);
    }
    w.list(5, CompactWriter.STRUCT, metadata.size());
    metadata.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> w.beginStruct().string(1, e.getKey()).string(2, e.getValue()).endStruct());
    w.string(6, CREATED_BY);
    // Every column ordered by its type (signed integers, unsigned bytes): readers then trust the
    // min_value and max_value statistics.
    w.list(7, CompactWriter.STRUCT, columns.size());
    for (int c = 0; c < columns.size(); c++) {
      w.beginStruct().beginStruct(1).endStruct().endStruct();
    }
    w.endStruct();
  }

  private static void rowGroup(
      List<Column> columns, Group group, int ordinal, Codec codec, CompactWriter w) {
    long uncompressed = 0;
    long compressed = 0;
    w.beginStruct();
    w.list(1, CompactWriter.STRUCT, columns.size());
    for (int c = 0; c < columns.size(); c++) {
      Column col = columns.get(c);
      ChunkEncoder.Chunk k = group.chunks().get(c);
      uncompressed += k.uncompressed();
      compressed += k.compressed();
      w.beginStruct();
      w.i64(2, k.start());
      w.beginStruct(3);
      w.i32(1, physicalType(col));
      boolean dictionary = k.dictionaryPageOffset() >= 0;
      boolean levels = col.optional();
      w.list(2, CompactWriter.I32, 1 + (dictionary ? 1 : 0) + (levels ? 1 : 0));
      w.i32(ChunkEncoder.PLAIN);
      if (dictionary) {
        w.i32(ChunkEncoder.RLE_DICTIONARY);
      }
      if (levels) {
        w.i32(ChunkEncoder.RLE);
      }
      w.list(3, CompactWriter.BINARY, 1).string(col.name());
      w.i32(4, codec.thrift);
      w.i64(5, k.values());
      w.i64(6, k.uncompressed());
      w.i64(7, k.compressed());
      w.i64(9, k.dataPageOffset());
      if (dictionary) {
        w.i64(11, k.dictionaryPageOffset());
      }
      w.beginStruct(12);
      w.i64(3, k.nulls());
      if (k.max() != null) {
        w.binary(5, k.max()).binary(6, k.min());
      }
      w.endStruct();
      w.endStruct();
      w.endStruct();
    }
    w.i64(2, uncompressed);
    w.i64(3, group.rows());
    w.i64(5, group.start());
    w.i64(6, compressed);
    w.i16(7, (short) ordinal);
    w.endStruct();
  }

  private static int physicalType(Column c) {
    return switch (c.type()) {
      case INT32 -> INT32;
      case INT64, INT64_DICT -> INT64;
      case STRING -> BYTE_ARRAY;
    };
  }
}
