package dev.weft.store.parquet;

import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Parquet's GZIP codec: each page a gzip member (RFC 1952: a 10-byte header, raw deflate, CRC-32
 * and length), made with one reused {@link Deflater}.
 */
final class Gzip implements AutoCloseable {
  private final Deflater deflater;
  private final CRC32 crc = new CRC32();

  Gzip(int level) {
    deflater = new Deflater(level, true);
  }

  /** Appends {@code in[0..len)} compressed to {@code out}. */
  void compress(byte[] in, int len, ByteBuf out) {
    out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff});
    deflater.reset();
    deflater.setInput(in, 0, len);
    deflater.finish();
    while (!deflater.finished()) {
      out.reserve(Math.max(4096, len / 4));
      out.size += deflater.deflate(out.bytes, out.size, out.bytes.length - out.size);
    }
    crc.reset();
    crc.update(in, 0, len);
    out.writeIntLe((int) crc.getValue());
    out.writeIntLe(len);
  }

  @Override
  public void close() {
    deflater.end();
  }
}
