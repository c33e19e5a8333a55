package dev.weft.trace;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A trace opened for reading:
 *
 * <pre>{@code
 * try (Trace trace = Trace.open(dir)) {
 *   EventCursor c = trace.events();          // all threads, in time order
 *   while (c.next()) {
 *     RegionDef r = trace.definitions().region(c.region());
 *   }
 *   trace.streams().forEach(s -> System.out.println(s.state()));
 * }
 * }</pre>
 *
 * Definitions are read when the trace is opened; events are streamed through a 32 KiB buffer per
 * thread, so reading never holds the whole trace in memory. Problems that do not stop reading (a
 * cut stream, an event file without a thread definition) are collected in {@link #warnings()} and
 * in each stream's {@link StreamCursor#state()}.
 */
public final class Trace implements Closeable {
  private final Path dir;
  private final Definitions definitions;
  private final TreeMap<Integer, Path> files = new TreeMap<>();
  private final List<StreamCursor> open = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();

  private Trace(Path dir) {
    this.dir = dir;
    if (!Files.isDirectory(dir)) {
      throw new TraceFormatException(
          dir
              + (Files.exists(dir)
                  ? ": not a Weft trace (not a directory)"
                  : ": no such trace directory"));
    }
    this.definitions = Definitions.read(dir);
    Path events = dir.resolve(TraceFiles.EVENTS_DIR);
    if (Files.isDirectory(events)) {
      try (Stream<Path> list = Files.list(events)) {
        for (Path p : (Iterable<Path>) list::iterator) {
          String name = p.getFileName().toString();
          if (!name.endsWith(TraceFiles.EVENTS_SUFFIX)) {
            continue;
          }
          int id;
          try {
            String digits = name.substring(0, name.length() - TraceFiles.EVENTS_SUFFIX.length());
            id = Integer.parseInt(digits);
          } catch (NumberFormatException e) {
            warnings.add(p + ": ignored (not a stream file name)");
            continue;
          }
          if (definitions.thread(id) == null) {
            warnings.add(p + ": ignored (no thread definition for stream " + id + ")");
            continue;
          }
          checkHeader(p, id);
          files.put(id, p);
        }
      } catch (IOException e) {
        throw new TraceFormatException(events + ": cannot list: " + e.getMessage(), e);
      }
    }
    if (!definitions.closedCleanly()) {
      warnings.add(
          "trace was not closed cleanly (process killed or still running):"
              + " events may be missing at its end");
    }
    if (definitions.cut()) {
      warnings.add(TraceFiles.DEFS_FILE + ": ends inside a record (cut)");
    }
  }

  /** Fails now, with a one-line message, on an event file that is not one of this trace's. */
  private static void checkHeader(Path file, int id) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      StreamCursor.readHeader(file, ch, id);
    } catch (IOException e) {
      throw new TraceFormatException(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  /**
   * Opens a trace directory and reads its definitions.
   *
   * @throws TraceFormatException with a one-line message when {@code dir} is not a readable Weft
   *     trace
   */
  public static Trace open(Path dir) {
    return new Trace(dir);
  }

  public Path directory() {
    return dir;
  }

  public Definitions definitions() {
    return definitions;
  }

  /** Stream ids that have an event file, ascending. */
  public List<Integer> streamIds() {
    return List.copyOf(files.keySet());
  }

  /** A new cursor over all events of all threads, merged in time order. */
  public EventCursor events() {
    List<StreamCursor> cursors = new ArrayList<>();
    for (Integer id : files.keySet()) {
      cursors.add(stream(id));
    }
    return new MergedCursor(cursors);
  }

  /** A new cursor over one thread's events. */
  public StreamCursor stream(int id) {
    Path p = files.get(id);
    if (p == null) {
      throw new TraceFormatException(dir + ": no event file for stream " + id);
    }
    StreamCursor c = new StreamCursor(p, id);
    open.add(c);
    return c;
  }

  /** Every stream cursor opened so far (after reading, their states say how each stream ended). */
  public List<StreamCursor> streams() {
    return Collections.unmodifiableList(open);
  }

  /** Problems found while opening: each one line. Stream problems are in {@link #streams()}. */
  public List<String> warnings() {
    return Collections.unmodifiableList(warnings);
  }

  @Override
  public void close() {
    for (StreamCursor c : open) {
      c.close();
    }
    open.clear();
  }
}
