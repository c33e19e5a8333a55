package dev.weft.cli.fuzz;

import dev.weft.cli.fuzz.Mutation.Kind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/** Makes the mutation of a random case from its seed, aimed with {@link TraceLayout}. */
final class Mutator {
  /** Kinds drawn at random, with their weights. */
  private static final Map<Kind, Integer> WEIGHTS = new java.util.LinkedHashMap<>();

  static {
    WEIGHTS.put(Kind.TRUNCATE, 5);
    WEIGHTS.put(Kind.FLIP_BITS, 5);
    WEIGHTS.put(Kind.ZERO_RANGE, 4);
    WEIGHTS.put(Kind.OVERWRITE, 3);
    WEIGHTS.put(Kind.HUGE_VARINT, 4);
    WEIGHTS.put(Kind.DUPLICATE, 1);
    WEIGHTS.put(Kind.FOREIGN, 2);
    WEIGHTS.put(Kind.DELETE_FILE, 1);
    WEIGHTS.put(Kind.NO_EVENTS_DIR, 1);
    WEIGHTS.put(Kind.NO_DEFS, 1);
    WEIGHTS.put(Kind.EMPTY_DEFS, 1);
    WEIGHTS.put(Kind.JUNK, 2);
    WEIGHTS.put(Kind.DIRECTORY, 1);
    WEIGHTS.put(Kind.FIFO, 1);
    WEIGHTS.put(Kind.SYMLINK_LOOP, 1);
    WEIGHTS.put(Kind.UNREADABLE, 1);
  }

  private static final String[] JUNK_PATHS = {
    "notes.txt", "events/notes.txt", "events/000999.wev", "events/junk.wev", "events/extra/"
  };

  private Mutator() {}

  /** A recorded trace as the mutator sees it: its files and their layout, read once. */
  static final class Base {
    final String name;
    final Path dir;

    /** {@code events/NNNNNN.wev}, in name order. */
    final List<String> eventFiles = new ArrayList<>();

    private final Map<String, byte[]> bytes = new HashMap<>();
    private final Map<String, TraceLayout.EventFile> layouts = new HashMap<>();
    private List<TraceLayout.Record> records;

    Base(String name, Path dir) {
      this.name = name;
      this.dir = dir;
      Path events = dir.resolve("events");
      if (Files.isDirectory(events)) {
        try (Stream<Path> s = Files.list(events)) {
          s.map(p -> "events/" + p.getFileName()).sorted().forEach(eventFiles::add);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }

    byte[] bytes(String file) {
      return bytes.computeIfAbsent(
          file,
          f -> {
            try {
              return Files.readAllBytes(dir.resolve(f));
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }

    TraceLayout.EventFile layout(String file) {
      return layouts.computeIfAbsent(file, f -> TraceLayout.events(bytes(f)));
    }

    List<TraceLayout.Record> records() {
      if (records == null) {
        records = TraceLayout.defs(bytes("defs.wdf"));
      }
      return records;
    }

    /** The end of a file's written bytes: an event file's end marker, a definitions file's size. */
    int dataEnd(String file) {
      return file.equals("defs.wdf") ? bytes(file).length : layout(file).end();
    }

    /** The event file with the most events. */
    String largest() {
      String best = eventFiles.get(0);
      for (String f : eventFiles) {
        if (layout(f).events().size() > layout(best).events().size()) {
          best = f;
        }
      }
      return best;
    }
  }

  /** The mutation of random case {@code seed}: which trace, what, where, all drawn from it. */
  static Mutation random(long seed, Base clean, Base cut) {
    Random r = new Random(mix(seed));
    Base b = r.nextBoolean() ? clean : cut;
    Base other = b == clean ? cut : clean;
    Kind kind = pick(r);
    boolean defs = r.nextInt(4) == 0;
    String file = defs ? "defs.wdf" : b.eventFiles.get(r.nextInt(b.eventFiles.size()));
    int end = b.dataEnd(file);
    Mutation m = Mutation.of(kind, b.name, file);
    switch (kind) {
      case TRUNCATE:
        return m.withOffset(defs ? r.nextInt(end) : r.nextInt(end + 2));
      case FLIP_BITS:
        {
          long[] bits = new long[1 + r.nextInt(8)];
          for (int i = 0; i < bits.length; i++) {
            bits[i] = 8L * r.nextInt(end + 1) + r.nextInt(8);
          }
          return m.withBits(bits);
        }
      case ZERO_RANGE:
        {
          int header = defs ? TraceLayout.DEFS_HEADER : TraceLayout.EVENTS_HEADER;
          int from = header + r.nextInt(Math.max(1, end - header));
          return m.withOffset(from).withLength(1 + r.nextInt(64));
        }
      case OVERWRITE:
        {
          List<TraceLayout.Block> blocks = defs ? List.of() : b.layout(file).blocks();
          if (!blocks.isEmpty() && r.nextInt(4) == 0) {
            // A huge block length.
            TraceLayout.Block k = blocks.get(r.nextInt(blocks.size()));
            return m.withOffset(k.start() + 1).withBytes(new byte[] {-1, -1, -1, -1});
          }
          byte[] junk = new byte[1 + r.nextInt(16)];
          r.nextBytes(junk);
          return m.withOffset(r.nextInt(end + 1)).withBytes(junk);
        }
      case HUGE_VARINT:
        return hugeVarint(r, b, m, defs);
      case DUPLICATE:
        {
          String target = b.eventFiles.get(r.nextInt(b.eventFiles.size()));
          String source = b.eventFiles.get(r.nextInt(b.eventFiles.size()));
          if (source.equals(target) && b.eventFiles.size() > 1) {
            source = b.eventFiles.get((b.eventFiles.indexOf(target) + 1) % b.eventFiles.size());
          }
          return Mutation.of(kind, b.name, target).withSource(source);
        }
      case FOREIGN:
        {
          String target = b.eventFiles.get(r.nextInt(b.eventFiles.size()));
          String source =
              other.eventFiles.contains(target)
                  ? target
                  : other.eventFiles.get(r.nextInt(other.eventFiles.size()));
          return Mutation.of(kind, b.name, target).withSource(source);
        }
      case DELETE_FILE:
        return Mutation.of(kind, b.name, b.eventFiles.get(r.nextInt(b.eventFiles.size())));
      case NO_EVENTS_DIR:
      case NO_DEFS:
      case EMPTY_DEFS:
        return Mutation.of(kind, b.name, null);
      case JUNK:
        {
          byte[] junk = new byte[r.nextInt(300)];
          r.nextBytes(junk);
          return Mutation.of(kind, b.name, null)
              .withSource(JUNK_PATHS[r.nextInt(JUNK_PATHS.length)])
              .withBytes(junk);
        }
      case DIRECTORY:
      case FIFO:
      case SYMLINK_LOOP:
      case UNREADABLE:
        return m;
      default:
        throw new IllegalStateException("not drawn at random: " + kind);
    }
  }

  /** A varint of an event (its delta or a field) or of a definition set to 2^64 - 1. */
  private static Mutation hugeVarint(Random r, Base b, Mutation m, boolean defs) {
    Mutation huge = m.withValue(-1L);
    if (defs) {
      List<TraceLayout.Record> records = b.records();
      TraceLayout.Record rec = records.get(r.nextInt(records.size()));
      if (rec.varints().length == 0 || r.nextInt(5) == 0) {
        return huge.withOffset(rec.lengthOffset()); // a huge record length
      }
      return huge.withOffset(rec.varints()[r.nextInt(rec.varints().length)]);
    }
    List<TraceLayout.Event> events = b.layout(m.file()).events();
    if (events.isEmpty()) {
      return huge.withOffset(b.dataEnd(m.file()));
    }
    TraceLayout.Event e = events.get(r.nextInt(events.size()));
    return huge.withOffset(e.varints()[r.nextInt(e.varints().length)]);
  }

  /**
   * The seed scrambled (the finaliser of MurmurHash3): the first values of {@link Random}s with
   * consecutive seeds are nearly the same, and case i + 1 should not repeat case i.
   */
  static long mix(long seed) {
    long z = seed;
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }

  private static Kind pick(Random r) {
    int total = WEIGHTS.values().stream().mapToInt(Integer::intValue).sum();
    int x = r.nextInt(total);
    for (Map.Entry<Kind, Integer> e : WEIGHTS.entrySet()) {
      x -= e.getValue();
      if (x < 0) {
        return e.getKey();
      }
    }
    throw new IllegalStateException();
  }
}
