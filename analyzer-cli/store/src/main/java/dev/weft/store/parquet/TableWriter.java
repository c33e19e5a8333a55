package dev.weft.store.parquet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Writes one Parquet file of flat columns, without any Parquet library: the producer fills a {@link
 * RowBlock} in place (primitive arrays, dictionary ids) and, when it is full, the block is sorted
 * ({@link RowOrder}), encoded and written on a second thread while the producer fills the other
 * block. The file is written under a temporary name and renamed by {@link #finish}: nobody sees
 * half a file.
 *
 * <p>Layout: {@code PAR1}, the row groups (per column: a dictionary page for dictionary columns,
 * then version-1 data pages), the footer (Thrift compact {@code FileMetaData} with per-chunk
 * min/max statistics and the key-value metadata), its length, {@code PAR1}.
 */
public final class TableWriter implements AutoCloseable {
  private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

  private final List<Column> columns;
  private final Map<String, String> metadata;
  private final Codec codec;
  private final RowOrder rowOrder;
  private final Path tmp;
  private final FileChannel file;
  private final ExecutorService encoder;
  private final ChunkEncoder chunks;
  private final ByteBuf group = new ByteBuf(1 << 20);
  private final List<RowGroup> rowGroups = new ArrayList<>();
  private RowBlock filling;
  private RowBlock spare;
  private Future<?> encoding;
  private int[] order = new int[0];
  private long position;
  private boolean done;

  private record RowGroup(long rows, long start, List<ChunkEncoder.Chunk> chunks) {}

  private TableWriter(
      Path tmp,
      List<Column> columns,
      Map<String, String> metadata,
      Codec codec,
      RowOrder rowOrder,
      int rowGroupRows)
      throws IOException {
    this.tmp = tmp;
    this.columns = List.copyOf(columns);
    this.metadata = Map.copyOf(metadata);
    this.codec = codec;
    this.rowOrder = rowOrder;
    this.file =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
    this.filling = new RowBlock(this.columns, rowGroupRows);
    this.spare = new RowBlock(this.columns, rowGroupRows);
    this.chunks = new ChunkEncoder(codec);
    this.encoder =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "weft-parquet-encoder");
              t.setDaemon(true);
              return t;
            });
    write(ByteBuffer.wrap(MAGIC));
  }

  /**
   * Starts a file whose rows are written to {@code tmp} (a name readers skip, in the final
   * directory) and renamed by {@link #finish}.
   *
   * @param metadata the footer's key-value metadata
   * @param rowGroupRows rows per row group (the last one may have fewer)
   */
  public static TableWriter create(
      Path tmp,
      List<Column> columns,
      Map<String, String> metadata,
      Codec codec,
      RowOrder rowOrder,
      int rowGroupRows)
      throws IOException {
    Files.createDirectories(tmp.toAbsolutePath().getParent());
    return new TableWriter(tmp, columns, metadata, codec, rowOrder, rowGroupRows);
  }

  /**
   * The block to add the next row to: {@code RowBlock b = w.block(); int i = b.add(); …}. A full
   * block goes to the encoding thread and the other one comes back.
   */
  public RowBlock block() throws IOException {
    if (filling.full()) {
      submit();
    }
    return filling;
  }

  private void submit() throws IOException {
    RowBlock full = filling;
    full.dictionaries = new Dictionary.View[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      Dictionary d = columns.get(c).dictionary();
      full.dictionaries[c] = d == null ? null : d.view();
    }
    Future<?> previous = encoding;
    encoding = encoder.submit(() -> encode(full));
    await(previous); // the spare block's rows are written: it can be filled again
    filling = spare;
    spare = full;
  }

  private static void await(Future<?> f) throws IOException {
    if (f == null) {
      return;
    }
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing Parquet", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      throw new IOException(String.valueOf(cause), cause);
    }
  }

  /** On the encoding thread: sorts, encodes and writes one row group, then empties the block. */
  private void encode(RowBlock block) {
    int n = block.rows;
    if (order.length < n) {
      order = new int[n];
    }
    rowOrder.order(block, order);
    group.clear();
    long start = position;
    List<ChunkEncoder.Chunk> written = new ArrayList<>(columns.size());
    for (int c = 0; c < columns.size(); c++) {
      written.add(chunks.encode(columns.get(c), c, block, order, group, start));
    }
    try {
      write(ByteBuffer.wrap(group.bytes, 0, group.size));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rowGroups.add(new RowGroup(n, start, written));
    block.clear();
  }

  private void write(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      position += file.write(b);
    }
  }

  /** Writes the last rows and the footer, and renames the file to {@code target}. */
  public void finish(Path target) throws IOException {
    if (filling.rows > 0) {
      submit();
    }
    await(encoding);
    encoding = null;
    ByteBuf footer = new ByteBuf(4096);
    Footer.write(columns, rowGroupsView(), metadata, codec, new CompactWriter(footer));
    footer.writeIntLe(footer.size);
    footer.write(MAGIC);
    write(ByteBuffer.wrap(footer.bytes, 0, footer.size));
    file.close();
    Files.createDirectories(target.toAbsolutePath().getParent());
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, target);
    }
    done = true;
    close();
  }

  private List<Footer.Group> rowGroupsView() {
    List<Footer.Group> out = new ArrayList<>(rowGroups.size());
    for (RowGroup g : rowGroups) {
      out.add(new Footer.Group(g.rows(), g.start(), g.chunks()));
    }
    return out;
  }

  /** Stops the encoding thread; without {@link #finish}, deletes the temporary file. */
  @Override
  public void close() throws IOException {
    encoder.shutdownNow();
    try {
      encoder.awaitTermination(1, TimeUnit.MINUTES); // its encoder's buffers are freed below
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    chunks.close();
    if (!done) {
      file.close();
      Files.deleteIfExists(tmp);
    }
  }
}
