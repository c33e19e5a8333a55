package dev.weft.store.parquet;

/** How pages are compressed: the codecs the JDK alone can write. */
public enum Codec {
  UNCOMPRESSED(0, 0),
  /** gzip at deflate level 1: the fastest level, most of the gain on these columns. */
  GZIP(2, 1);

  /** The CompressionCodec value in parquet.thrift. */
  final int thrift;

  private final int level;

  Codec(int thrift, int level) {
    this.thrift = thrift;
    this.level = level;
  }

  int level() {
    return level;
  }
}
