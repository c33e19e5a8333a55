package dev.weft.trace;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
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

  /**
   * What a trace is, once read: the one verdict every command reports (see RELIABILITY.md).
   *
   * <ul>
   *   <li>{@link #COMPLETE}: closed cleanly, every stream read to its end, nothing damaged.
   *   <li>{@link #CUT}: cleanly readable up to a point (a crash, a kill, a full disk, a truncated
   *       copy): what was read is what was written.
   *   <li>{@link #PARTIAL}: damaged, read with salvage: only the valid part was read.
   *   <li>{@link #DAMAGED}: inconsistent bytes or files; without salvage, reading stopped there.
   * </ul>
   */
  public enum Status {
    COMPLETE,
    CUT,
    PARTIAL,
    DAMAGED;

    /** The lower-case word used in text and JSON output. */
    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The verdict on a trace after its events were read.
   *
   * @param status what the trace is
   * @param damage what was damaged, one line each naming the file and byte offset (first first)
   * @param cut why the trace is cut, one line each (empty for a complete trace)
   * @param lostEvents events known lost to damage (-1 when some losses could not be counted)
   */
  public record Integrity(Status status, List<String> damage, List<String> cut, long lostEvents) {
    public Integrity {
      damage = List.copyOf(damage);
      cut = List.copyOf(cut);
    }

    /** One line for the output: "complete", "cut: ...", "partial: ...", "damaged: ...". */
    public String summary() {
      switch (status) {
        case COMPLETE:
          return "complete";
        case CUT:
          return "cut: " + String.join("; ", cut);
        default:
          String lost =
              lostEvents > 0
                  ? " (" + lostEvents + " events lost)"
                  : lostEvents < 0 ? " (lost events uncounted)" : "";
          return status.id()
              + ": "
              + damage.get(0)
              + (damage.size() > 1 ? " (and " + (damage.size() - 1) + " more)" : "")
              + lost;
      }
    }
  }

  private final Path dir;
  private final boolean salvage;
  private final Definitions definitions;
  private final TreeMap<Integer, Path> files = new TreeMap<>();
  private final List<StreamCursor> open = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();
  private final List<String> openDamage = new ArrayList<>();

  private Trace(Path dir, boolean salvage) {
    this.dir = dir;
    this.salvage = salvage;
    if (!Files.isDirectory(dir)) {
      throw new TraceFormatException(
          dir
              + (Files.exists(dir)
                  ? ": not a Weft trace (not a directory)"
                  : ": no such trace directory"));
    }
    this.definitions = Definitions.read(dir, salvage);
    if (definitions.damage() != null) {
      openDamage.add(definitions.damage());
    }
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
            // The writer defines a thread before it creates its file, and a kill or a full disk
            // cannot undo that: a file without its thread is damage, even in a cut trace.
            damage(p + ": no thread definition for stream " + id);
            continue;
          }
          if (!Files.isRegularFile(p)) {
            damage(p + ": not a regular file");
            continue;
          }
          try {
            checkHeader(p, id);
          } catch (TraceFormatException e) {
            damage(e.getMessage());
            continue;
          }
          files.put(id, p);
        }
      } catch (IOException e) {
        throw new TraceFormatException(events + ": cannot list: " + e.getMessage(), e);
      }
    } else if (Files.exists(events)) {
      damage(events + ": not a directory");
    }
    for (ThreadDef t : definitions.streamDefinitions()) {
      if (files.containsKey(t.stream()) || definitions.drops().containsKey(t.stream())) {
        continue;
      }
      Path expected = TraceFiles.streamFile(dir, t.stream());
      if (Files.exists(expected, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        continue; // already reported above
      }
      if (definitions.closedCleanly()) {
        damage(expected + ": missing (thread '" + t.name() + "' is defined)");
      } else {
        missingFiles.add(t); // judged after reading: see integrity()
      }
    }
    if (definitions.traceId() == 0
        && (definitions.cut() || definitions.versionMinor() >= 1)
        && hasEventFiles(events)) {
      // The writer writes the trace id before it creates any event file.
      damage(
          dir.resolve(TraceFiles.DEFS_FILE)
              + ": ends before its trace id record, yet events/ holds event files");
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

  /**
   * How long a killed writer may take from a thread's definition to its event file: a defined
   * thread without a file is a cut only if it was defined this close to the end of the recording.
   */
  static final long FILE_CREATION_SLACK_NANOS = 100_000_000L;

  /** Threads of a trace not closed cleanly that have no event file. */
  private final List<ThreadDef> missingFiles = new ArrayList<>();

  /**
   * When {@code defs.wdf} was last written, in the trace's clock, or {@link Long#MIN_VALUE} when
   * that cannot be told (no clock definition, no modification time).
   */
  private long lastDefinitionWrite() {
    ClockDef clock = definitions.clock();
    if (clock == null) {
      return Long.MIN_VALUE;
    }
    try {
      java.nio.file.attribute.FileTime m =
          Files.getLastModifiedTime(dir.resolve(TraceFiles.DEFS_FILE));
      long epochNanos = m.to(java.util.concurrent.TimeUnit.NANOSECONDS);
      return clock.nanoBase() + (epochNanos - clock.epochNanos());
    } catch (IOException | ArithmeticException e) {
      return Long.MIN_VALUE;
    }
  }

  private static boolean hasEventFiles(Path events) {
    if (!Files.isDirectory(events)) {
      return false;
    }
    try (Stream<Path> list = Files.list(events)) {
      return list.anyMatch(p -> p.getFileName().toString().endsWith(TraceFiles.EVENTS_SUFFIX));
    } catch (IOException e) {
      return false;
    }
  }

  /** Damage found while opening: fails now, unless salvaging. */
  private void damage(String line) {
    if (!salvage) {
      throw new TraceFormatException(line);
    }
    openDamage.add(line);
  }

  /** Fails now, with a one-line message, on an event file that is not one of this trace's. */
  private void checkHeader(Path file, int id) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      EventFileHeader.read(file, ch, id, definitions.traceId(), definitions.versionMinor());
    } catch (IOException e) {
      throw new TraceFormatException(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  /**
   * Opens a trace directory and reads its definitions. Damage found now (a damaged definition
   * record, an event file of another trace, a missing or foreign file) fails at once; damage inside
   * event files stops the damaged stream when it is reached, and {@link #integrity()} says so.
   *
   * @throws TraceFormatException with a one-line message naming the file (and byte offset) when
   *     {@code dir} is not a readable Weft trace
   */
  public static Trace open(Path dir) {
    return new Trace(dir, false);
  }

  /**
   * Opens a trace to read what is valid of it: damaged definition records end the definitions
   * there, damaged or foreign event files are left out, damaged blocks and events are skipped and
   * counted. {@link #integrity()} is then {@link Status#PARTIAL} if anything was damaged.
   *
   * @throws TraceFormatException when {@code dir} is not a Weft trace at all
   */
  public static Trace openSalvaging(Path dir) {
    return new Trace(dir, true);
  }

  /**
   * For format tests whose random events name regions nobody defined: opens without the checks
   * against the region definitions (the bytes, checksums and trace id are still checked).
   */
  static Trace openWithoutDefinitionChecks(Path dir) {
    return openWithoutDefinitionChecks(dir, false);
  }

  /** As {@link #openWithoutDefinitionChecks(Path)}, salvaging when {@code salvage}. */
  static Trace openWithoutDefinitionChecks(Path dir, boolean salvage) {
    Trace t = new Trace(dir, salvage);
    t.checkDefinitions = false;
    return t;
  }

  private boolean checkDefinitions = true;

  /** True when opened with {@link #openSalvaging}. */
  public boolean salvaging() {
    return salvage;
  }

  /**
   * The verdict, from the definitions, the files and every stream cursor opened so far: call it
   * after reading the events. A stream never read counts as read to its end.
   */
  public Integrity integrity() {
    List<String> damage = new ArrayList<>(openDamage);
    List<String> cut = new ArrayList<>();
    long lost = 0;
    boolean lostUnknown = !openDamage.isEmpty();
    Map<Integer, StreamCursor> last = new LinkedHashMap<>();
    for (StreamCursor c : open) {
      last.put(c.stream(), c); // commands may read a stream more than once: the last read counts
    }
    for (StreamCursor c : last.values()) {
      List<String> d = c.damage();
      if (!d.isEmpty()) {
        damage.addAll(d);
        if (c.lostEvents() < 0) {
          lostUnknown = true;
        } else {
          lost += c.lostEvents();
        }
      } else if (c.state() == StreamCursor.State.CUT) {
        cut.add(c.problem());
      }
    }
    if (definitions.cut()) {
      cut.add(TraceFiles.DEFS_FILE + " ends inside a record");
    }
    if (!definitions.closedCleanly()) {
      cut.add("not closed cleanly (process killed or still running)");
    }
    // The latest the recording is known to have run: its last event read, its latest thread
    // definition, and when the definitions file was last written (in the trace's clock).
    long lastEvent = lastDefinitionWrite();
    for (StreamCursor c : last.values()) {
      if (c.eventCount() > 0) {
        lastEvent = Math.max(lastEvent, c.time());
      }
    }
    for (ThreadDef t : definitions.streamDefinitions()) {
      for (ThreadDef.Rename r : t.names()) {
        lastEvent = Math.max(lastEvent, r.time());
      }
    }
    for (ThreadDef t : missingFiles) {
      long defined = t.names().isEmpty() ? Long.MIN_VALUE : t.names().get(0).time();
      Path file = TraceFiles.streamFile(dir, t.stream());
      if (lastEvent != Long.MIN_VALUE
          && defined != Long.MIN_VALUE
          && lastEvent - defined > FILE_CREATION_SLACK_NANOS) {
        damage.add(
            file
                + ": missing (thread '"
                + t.name()
                + "' was defined "
                + (lastEvent - defined) / 1_000_000
                + " ms before the recording's last event: its file would exist)");
        lostUnknown = true;
      } else {
        cut.add(
            "thread '" + t.name() + "' has no event file (recording stopped while creating it)");
      }
    }
    Status status =
        !damage.isEmpty()
            ? (salvage ? Status.PARTIAL : Status.DAMAGED)
            : cut.isEmpty() ? Status.COMPLETE : Status.CUT;
    return new Integrity(status, damage, cut, lostUnknown ? -1 : lost);
  }

  /**
   * Fails, with one line naming the file and byte offset, when reading found damage and the trace
   * was not opened with salvage; returns the verdict otherwise. Every command calls this after
   * reading, so none of them answers from a damaged trace.
   *
   * @throws TraceFormatException on damage without salvage
   */
  public Integrity requireIntact() {
    Integrity i = integrity();
    if (i.status() == Status.DAMAGED) {
      throw new TraceFormatException(
          dir
              + ": damaged trace: "
              + i.damage().get(0)
              + (i.damage().size() > 1 ? " (and " + (i.damage().size() - 1) + " more)" : "")
              + " (weft … --salvage reads the valid part)");
    }
    return i;
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

  /**
   * The stream ids {@link #events()} reports events under, ascending: every event file's, and since
   * 1.3 every virtual thread's whose events are on its carriers' streams ({@link
   * ThreadDef#CARRIED}). A consumer that keeps something per thread sizes it from these.
   */
  public List<Integer> eventStreamIds() {
    TreeSet<Integer> all = new TreeSet<>(files.keySet());
    for (ThreadDef t : definitions.threads()) {
      if (t.isCarried()) {
        all.add(t.stream());
      }
    }
    return List.copyOf(all);
  }

  /**
   * A new cursor over all events of all threads, merged in time order. A stream's file is opened
   * when the merge reaches its THREAD definition's time (its events cannot come before), and let go
   * of after its last event: a trace of many short-lived threads is read with a file and a buffer
   * per thread alive at the time. When salvaging, every file is opened at once (a damaged stream's
   * times are not trusted to keep that order).
   */
  public EventCursor events() {
    List<MergedCursor.Leaf> leaves = new ArrayList<>();
    for (Integer id : files.keySet()) {
      leaves.add(leaf(id, c -> {}));
    }
    return VirtualThreadCursor.over(
        MergedCursor.ofLeaves(leaves, definitions::owner),
        definitions,
        (hosted, host) -> {
          hosts.put(hosted, host);
          return 0;
        });
  }

  /** Hosted threads' streams to their hosts', as {@link #events()} met them. */
  private final Map<Integer, Integer> hosts = new ConcurrentHashMap<>();

  /**
   * The stream whose file held the events of hosted thread {@code stream} ({@link
   * ThreadDef#isHosted}), once {@link #events()} has read its start; 0 for any other stream: a
   * hosted thread shares its host's reading, so a host cut short or damaged cuts it too.
   */
  public int host(int stream) {
    Integer h = hosts.get(stream);
    return h == null ? 0 : h;
  }

  /**
   * Stream {@code id} as a leaf of a merge ({@link #events()}): opened when the merge reaches its
   * THREAD definition's time, at once when that is not known, when salvaging, or when the file
   * cannot be read (which then fails here, as opening every file at once would). {@code opened} is
   * told the cursor when it is made.
   */
  MergedCursor.Leaf leaf(int id, Consumer<StreamCursor> opened) {
    ThreadDef def = definitions.thread(id);
    Path file = files.get(id);
    if (salvage
        || def == null
        || def.names().isEmpty()
        || file == null
        || !Files.isReadable(file)) {
      StreamCursor c = stream(id);
      opened.accept(c);
      return MergedCursor.Leaf.of(c);
    }
    return new MergedCursor.Leaf(
        id,
        def.names().get(0).time(),
        () -> {
          StreamCursor c = stream(id);
          opened.accept(c);
          return c;
        });
  }

  /** A new cursor over one thread's events. */
  public StreamCursor stream(int id) {
    Path p = files.get(id);
    if (p == null) {
      throw new TraceFormatException(dir + ": no event file for stream " + id);
    }
    StreamCursor c =
        new StreamCursor(
            p,
            id,
            new StreamCursor.Checks(definitions, definitions.traceId(), salvage, checkDefinitions));
    open.add(c);
    return c;
  }

  /**
   * Every stream cursor opened so far, by stream id (after reading, their states say how each
   * stream ended).
   */
  public List<StreamCursor> streams() {
    List<StreamCursor> all = new ArrayList<>(open);
    all.sort(Comparator.comparingInt(StreamCursor::stream));
    return Collections.unmodifiableList(all);
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
