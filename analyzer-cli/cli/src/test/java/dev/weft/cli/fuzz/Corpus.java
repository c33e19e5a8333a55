package dev.weft.cli.fuzz;

import dev.weft.cli.fuzz.Mutation.Kind;
import dev.weft.trace.EventKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fixed regression corpus ({@code fuzz/regression-corpus.txt}): mutations described by where
 * they aim in the trace's structure (the first {@code enter} event's region field, the first THREAD
 * record), resolved against each freshly recorded trace, so the corpus outlives changes of the
 * recordings' byte layout. The file's header comment describes the syntax.
 */
final class Corpus {
  private static final String RESOURCE = "/fuzz/regression-corpus.txt";
  private static final String[] RECORD_TYPES = {
    "",
    "STRING",
    "CLOCK",
    "PROCESS",
    "REGION",
    "THREAD",
    "THREAD_NAME",
    "POOL",
    "OBJECT",
    "DROPS",
    "END",
    "ATTRIBUTE"
  };

  private Corpus() {}

  /** One line of the corpus, as written. */
  record Entry(
      String name, String trace, Kind kind, String file, String where, Map<String, String> args) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** An entry resolved against a recorded trace: its mutation, or why it cannot be made there. */
  record Resolved(Entry entry, Mutation mutation, String skip) {}

  static List<Entry> load() throws IOException {
    List<Entry> entries = new ArrayList<>();
    try (InputStream in = Corpus.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IOException("missing test resource " + RESOURCE);
      }
      int n = 0;
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        n++;
        String s = line.strip();
        if (s.isEmpty() || s.startsWith("#")) {
          continue;
        }
        String[] cols = s.split("\\|");
        if (cols.length != 6) {
          throw new IOException(RESOURCE + ":" + n + ": expected 6 columns separated by '|'");
        }
        Map<String, String> args = new LinkedHashMap<>();
        for (String a : cols[5].strip().split("\\s+")) {
          if (!a.isEmpty() && !a.equals("-")) {
            int eq = a.indexOf('=');
            args.put(eq < 0 ? a : a.substring(0, eq), eq < 0 ? "" : a.substring(eq + 1));
          }
        }
        entries.add(
            new Entry(
                cols[0].strip(),
                cols[1].strip(),
                Kind.ofLabel(cols[2].strip()),
                cols[3].strip(),
                cols[4].strip(),
                args));
      }
    }
    return entries;
  }

  /** Resolves {@code e} against the recorded trace {@code b} ({@code other}: the other one). */
  static Resolved resolve(Entry e, Mutator.Base b, Mutator.Base other) {
    if (e.kind() == Kind.DEEP_NESTING) {
      return new Resolved(
          e,
          Mutation.of(e.kind(), e.trace(), null).withValue(Long.parseLong(e.args().get("depth"))),
          null);
    }
    String file = e.file().equals("-") ? null : e.file();
    if (file != null && file.startsWith("events/")) {
      file = eventFile(e, b, file);
      if (file == null) {
        return new Resolved(e, null, "no event file of the " + b.name + " trace fits " + e.where());
      }
    }
    long offset = file == null ? -1 : offset(b, file, e.where());
    if (offset == -2) {
      return new Resolved(
          e, null, e.where() + " is not in " + file + " of the " + b.name + " trace");
    }
    Mutation m = Mutation.of(e.kind(), b.name, file).withOffset(offset);
    Map<String, String> a = e.args();
    if (a.containsKey("value")) {
      m = m.withValue(a.get("value").equals("max") ? -1L : Long.parseUnsignedLong(a.get("value")));
    }
    if (a.containsKey("len")) {
      m = m.withLength(Integer.parseInt(a.get("len")));
    }
    if (a.containsKey("bytes")) {
      m = m.withBytes(HexFormat.of().parseHex(a.get("bytes")));
    }
    if (a.containsKey("bits")) {
      String[] bits = a.get("bits").split(",");
      long[] abs = new long[bits.length];
      for (int i = 0; i < bits.length; i++) {
        abs[i] = offset * 8 + Integer.parseInt(bits[i]);
      }
      m = m.withBits(abs);
    }
    if (a.containsKey("from")) {
      String from = a.get("from");
      if (from.equals("same")) {
        if (!other.eventFiles.contains(file)) {
          return new Resolved(e, null, "the " + other.name + " trace has no " + file);
        }
        from = file;
      }
      m = m.withSource(from);
    }
    if (a.containsKey("junk")) {
      m = m.withSource(a.get("junk")).withBytes(a.getOrDefault("text", "junk").getBytes());
    }
    return new Resolved(e, m, null);
  }

  /**
   * {@code events/largest}: the event file with the most events; {@code events/*}: the first event
   * file in which {@code where} resolves; otherwise the file named (null when it is missing).
   */
  private static String eventFile(Entry e, Mutator.Base b, String file) {
    if (file.equals("events/largest")) {
      return b.largest();
    }
    if (file.equals("events/*")) {
      for (String f : b.eventFiles) {
        if (offset(b, f, e.where()) != -2) {
          return f;
        }
      }
      return null;
    }
    return b.eventFiles.contains(file) ? file : null;
  }

  /**
   * The offset {@code where} names in {@code file}, -1 for none ({@code -}), -2 when it is not
   * there. Forms: {@code byte:N}, {@code frac:F} (of the written bytes), {@code end} (an event
   * file's end marker), {@code event:KIND#N} (+ {@code /delta} or {@code /field:J}), {@code
   * block:N/length}, {@code record:TYPE#N} (+ {@code /length} or {@code /field:J}).
   */
  static long offset(Mutator.Base b, String file, String where) {
    if (where.equals("-")) {
      return -1;
    }
    if (where.startsWith("byte:")) {
      return Long.parseLong(where.substring(5));
    }
    if (where.startsWith("frac:")) {
      return (long) (Double.parseDouble(where.substring(5)) * b.dataEnd(file));
    }
    if (where.equals("end")) {
      return b.dataEnd(file);
    }
    String[] parts = where.split("/");
    if (where.startsWith("event:")) {
      String[] kn = parts[0].substring(6).split("#");
      EventKind kind = EventKind.ofId(kn[0]);
      if (kind == null) {
        throw new IllegalArgumentException("unknown event kind in " + where);
      }
      TraceLayout.Event ev = b.layout(file).event(kind, Integer.parseInt(kn[1]));
      if (ev == null) {
        return -2;
      }
      return parts.length == 1 ? ev.offset() : varint(ev.varints(), parts[1], 1);
    }
    if (where.startsWith("block:")) {
      int n = Integer.parseInt(parts[0].substring(6));
      List<TraceLayout.Block> blocks = b.layout(file).blocks();
      return n < blocks.size() ? blocks.get(n).start() + 1 : -2;
    }
    if (where.startsWith("record:")) {
      String[] tn = parts[0].substring(7).split("#");
      int type = List.of(RECORD_TYPES).indexOf(tn[0]);
      if (type <= 0) {
        throw new IllegalArgumentException("unknown record type in " + where);
      }
      TraceLayout.Record r = TraceLayout.record(b.records(), type, Integer.parseInt(tn[1]));
      if (r == null) {
        return -2;
      }
      if (parts.length == 1) {
        return r.offset();
      }
      return parts[1].equals("length") ? r.lengthOffset() : varint(r.varints(), parts[1], 0);
    }
    throw new IllegalArgumentException("cannot read where '" + where + "'");
  }

  /** {@code delta} or {@code field:J} among varints whose fields start at {@code first}. */
  private static long varint(int[] varints, String which, int first) {
    if (which.equals("delta")) {
      return varints[0];
    }
    if (!which.startsWith("field:")) {
      throw new IllegalArgumentException("expected delta or field:J, got " + which);
    }
    int i = first + Integer.parseInt(which.substring(6));
    return i < varints.length ? varints[i] : -2;
  }
}
