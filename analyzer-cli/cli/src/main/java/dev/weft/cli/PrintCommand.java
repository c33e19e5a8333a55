package dev.weft.cli;

import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code weft print TRACE}: every event, one per line, in time order (like {@code jfr print}).
 *
 * <pre>
 *     0.000000 ms  main      enter          region=work @ App.java:12
 *     0.001250 ms  worker-1  lock_acquired  lock=0x1f (ReentrantLock) flags=none
 * </pre>
 */
@Command(
    name = "print",
    mixinStandardHelpOptions = true,
    description = {
      "Print a trace's events, one per line, in time order.",
      "Each line: time since the trace start (ms), thread, event kind and fields (regions with"
          + " their source location, pools by name, lock and barrier ids in hex, flags decoded)."
    })
final class PrintCommand implements Callable<Integer> {
  @Mixin TraceArgument trace;

  @Option(
      names = "--thread",
      paramLabel = "NAME",
      description = "Only events of the thread with this name (any name it had); repeatable.")
  List<String> threadNames = List.of();

  @Option(
      names = "--kind",
      split = ",",
      paramLabel = "KIND",
      completionCandidates = EventKindIds.class,
      description = "Only events of these kinds (e.g. lock_request,lock_acquired); see FORMAT.md.")
  List<String> kindIds = List.of();

  @Option(names = "--limit", paramLabel = "N", description = "Print at most N events.")
  long limit = Long.MAX_VALUE;

  @Option(
      names = "--from",
      paramLabel = "TIME",
      converter = Durations.Converter.class,
      description =
          "Only events at or after TIME since the trace start (ns, or 1.5ms, 200us, 2s, 1m).")
  Long from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      converter = Durations.Converter.class,
      description = "Only events at or before TIME since the trace start.")
  Long to;

  @Mixin ColorOption color;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    boolean[] kinds = selectedKinds();
    if (limit < 0) {
      throw new BadInputException("--limit must be 0 or more, not " + limit);
    }
    if (from != null && to != null && from > to) {
      throw new BadInputException("--from is after --to");
    }
    Style style = color.style();
    PrintWriter out = new PrintWriter(new BufferedWriter(spec.commandLine().getOut(), 1 << 16));
    try (Trace t = trace.open()) {
      boolean[] threads = selectedThreads(t);
      EventText text = new EventText(t.definitions());
      ThreadNames names = new ThreadNames(t);
      int nameWidth = Math.min(32, Math.max(6, names.maxLength()));
      EventCursor c = t.events();
      long start = Long.MIN_VALUE;
      long printed = 0;
      StringBuilder line = new StringBuilder(160);
      while (c.next()) {
        if (start == Long.MIN_VALUE) {
          start = c.time();
        }
        long rel = c.time() - start;
        if (to != null && rel > to) {
          break; // events come in time order: nothing later can match
        }
        if ((from != null && rel < from)
            || !kinds[c.kind().ordinal()]
            || (threads != null && (c.stream() >= threads.length || !threads[c.stream()]))) {
          continue;
        }
        if (printed >= limit) {
          break;
        }
        line.setLength(0);
        appendMillis(line, rel);
        line.append(" ms  ");
        String name = names.at(c.stream(), c.time());
        line.append(style.cyan(name));
        pad(line, Math.max(2, nameWidth - name.length() + 2)); // a longer name still ends in a gap
        String kind = c.kind().id();
        line.append(style.bold(kind));
        if (c.kind().fieldCount() > 0) {
          pad(line, 16 - kind.length());
          text.appendFields(line, c);
        }
        out.append(line).append('\n');
        printed++;
        if ((printed & 1023) == 0 && out.checkError()) {
          return ExitCodes.OK; // the reader went away (weft print ... | head)
        }
      }
      out.flush();
      // Also when it stopped early: what was read so far was checked, and a stream found cut or a
      // trace not closed is said.
      TraceProblems.report(t, spec.commandLine().getErr());
    }
    return ExitCodes.OK;
  }

  private boolean[] selectedKinds() {
    boolean[] selected = new boolean[EventKind.values().length];
    if (kindIds.isEmpty()) {
      Arrays.fill(selected, true);
      return selected;
    }
    for (String id : kindIds) {
      EventKind k = EventKind.ofId(id.strip().toLowerCase(java.util.Locale.ROOT));
      if (k == null) {
        throw new BadInputException(
            "unknown event kind '"
                + id
                + "' (kinds: "
                + Arrays.stream(EventKind.values())
                    .map(EventKind::id)
                    .collect(Collectors.joining(", "))
                + ")");
      }
      selected[k.ordinal()] = true;
    }
    return selected;
  }

  /** Streams of the threads named by --thread (indexed by stream id), or null for all. */
  private boolean[] selectedThreads(Trace t) {
    if (threadNames.isEmpty()) {
      return null;
    }
    int max = 0;
    for (ThreadDef d : t.definitions().threads()) {
      max = Math.max(max, d.stream());
    }
    boolean[] selected = new boolean[max + 1];
    for (String wanted : threadNames) {
      boolean found = false;
      for (ThreadDef d : t.definitions().threads()) {
        if (d.name().equals(wanted) || d.names().stream().anyMatch(n -> n.name().equals(wanted))) {
          selected[d.stream()] = true;
          found = true;
        }
      }
      if (!found) {
        throw new BadInputException(
            "no thread named '"
                + wanted
                + "' in "
                + t.directory()
                + " (threads: "
                + t.definitions().threads().stream()
                    .map(ThreadDef::name)
                    .distinct()
                    .collect(Collectors.joining(", "))
                + ")");
      }
    }
    return selected;
  }

  /** {@code 1234.567890}: milliseconds with nanosecond digits, right-aligned in 12 columns. */
  static void appendMillis(StringBuilder b, long nanos) {
    long ms = nanos / 1_000_000;
    long frac = nanos % 1_000_000;
    String whole = Long.toString(ms);
    pad(b, 5 - whole.length());
    b.append(whole).append('.');
    String f = Long.toString(frac);
    for (int i = f.length(); i < 6; i++) {
      b.append('0');
    }
    b.append(f);
  }

  private static void pad(StringBuilder b, int n) {
    for (int i = 0; i < n; i++) {
      b.append(' ');
    }
  }

  /** A thread's name at a time (threads may be renamed while they run). */
  private static final class ThreadNames {
    private final Map<Integer, List<ThreadDef.Rename>> renames = new HashMap<>();
    private final Map<Integer, Integer> current = new HashMap<>();

    /** Each stream's label while it has no name ({@link ThreadDef#unnamedLabel}). */
    private final Map<Integer, String> unnamed = new HashMap<>();

    private int maxLength;

    ThreadNames(Trace t) {
      for (ThreadDef d : t.definitions().threads()) {
        renames.put(d.stream(), d.names());
        unnamed.put(d.stream(), d.unnamedLabel());
        for (ThreadDef.Rename r : d.names()) {
          maxLength =
              Math.max(maxLength, (r.name().isEmpty() ? d.unnamedLabel() : r.name()).length());
        }
      }
    }

    int maxLength() {
      return maxLength;
    }

    /** The stream's name at {@code time}; times of one stream only grow, so a cursor suffices. */
    String at(int stream, long time) {
      List<ThreadDef.Rename> names = renames.get(stream);
      if (names == null || names.isEmpty()) {
        return "stream-" + stream;
      }
      int i = current.getOrDefault(stream, 0);
      while (i + 1 < names.size() && names.get(i + 1).time() <= time) {
        i++;
      }
      current.put(stream, i);
      String name = names.get(i).name();
      return name.isEmpty() ? unnamed.get(stream) : name;
    }
  }
}
