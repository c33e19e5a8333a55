package dev.weft.cli.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The invariant every run of a command on a damaged, cut or foreign trace must keep, and the
 * outcome of a run against it.
 *
 * <ul>
 *   <li>The exit code is 0 or 2: never 3 (internal error), never an escaped {@link Throwable},
 *       never a hang.
 *   <li>stderr is only {@code weft: } lines, none of them a stack trace or the name of an exception
 *       class.
 *   <li>Exit 2: stderr is zero or more {@code weft: warning: } lines followed by the error: exactly
 *       one further {@code weft: } line, except for {@code verify}, which prints every error it
 *       finds on a line of its own (CLI.md) and so needs at least one.
 *   <li>Exit 0 only when (a) the result is the unmutated trace's result (stdout, and the written
 *       file for {@code export}, the trace's path and notes of ignored files aside; for {@code
 *       verify} also the events the unlimited {@code weft print} lists), or (b) the mutation was a
 *       truncation (a truncated file is a legitimately cut trace) and the run says openly that the
 *       trace is cut: stdout or stderr has the word {@code cut}, {@code partial} or {@code
 *       incomplete}, or the analysis JSON's {@code trace.status} is not {@code complete} (or,
 *       before that field, its {@code trace.complete} is false). Any other exit 0 is a silent wrong
 *       answer.
 * </ul>
 */
final class Oracle {
  static final Pattern MARKED_CUT = Pattern.compile("(?i)\\b(cut|partial|incomplete)\\b");
  private static final Pattern EXCEPTION_NAME =
      Pattern.compile("(?:^|[\\s:(])(?:[a-z][\\w$]*\\.)*[A-Z][\\w$]*(?:Exception|Error)\\b");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String IGNORED = ": ignored (";

  private Oracle() {}

  /** What a run came to. {@link #ok} outcomes keep the invariant. */
  enum Outcome {
    SAME("0 same", true),
    MARKED_CUT("0 marked cut", true),
    SILENT_WRONG("0 silent-wrong", false),
    EXIT_2("2", true),
    /** verify: the trace's bytes are intact but its events do not pair up (CLI.md). */
    VERIFY_NOT_WELL_FORMED("1 verify", true),
    EXIT_2_BAD_MESSAGE("2 bad stderr", false),
    EXIT_3("3", false),
    OTHER_EXIT("other exit", false),
    STACK_TRACE("stack trace", false),
    HANG("hang", false),
    OOM_SOE("OOM/SOE", false),
    THROWN("thrown", false);

    final String label;
    final boolean ok;

    Outcome(String label, boolean ok) {
      this.label = label;
      this.ok = ok;
    }
  }

  /** The commands run on every trace. */
  enum Command {
    VERIFY("verify"),
    SUMMARY("summary"),
    ANALYZE("analyze"),
    ANALYZE_JSON("analyze-json"),
    PRINT("print"),
    EXPORT("export");

    final String label;

    Command(String label) {
      this.label = label;
    }

    /** The command line for {@code trace}; {@code work} is a directory for written files. */
    String[] args(Path trace, Path work) {
      String t = trace.toString();
      switch (this) {
        case ANALYZE_JSON:
          return new String[] {"analyze", t, "--format", "json"};
        case PRINT:
          return new String[] {"print", t, "--limit", "50"};
        case EXPORT:
          return new String[] {
            "export", t, "--format", "chrome", "-o", work.resolve("export.json").toString()
          };
        default:
          return new String[] {label, t};
      }
    }

    /**
     * What the run produced, to compare with the unmutated trace's: stdout, and for {@code export}
     * the file it wrote; with the trace's path replaced by {@code TRACE}.
     */
    String result(WeftRunner.Run run, Path trace, Path work) {
      String r = run.out();
      if (this == EXPORT) {
        Path f = work.resolve("export.json");
        try {
          r += Files.isRegularFile(f) ? Files.readString(f) : "";
          Files.deleteIfExists(f);
        } catch (IOException e) {
          r += "(unreadable export: " + e + ")";
        }
      }
      return withoutIgnoredFiles(this, r.replace(trace.toString(), "TRACE"));
    }
  }

  /**
   * {@code result} without the notes that a file in the trace directory was ignored (FORMAT.md: an
   * event file with a name that is not a stream number, or of a stream without a THREAD definition,
   * is ignored with a warning): a trace with such a junk file gives the same result.
   */
  static String withoutIgnoredFiles(Command command, String result) {
    if (command == Command.ANALYZE_JSON) {
      try {
        JsonNode tree = JSON.readTree(result);
        JsonNode notes = tree.path("notes");
        if (notes.isArray()) {
          for (int i = notes.size() - 1; i >= 0; i--) {
            if (notes.get(i).asText().contains(IGNORED)) {
              ((com.fasterxml.jackson.databind.node.ArrayNode) notes).remove(i);
            }
          }
        }
        return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
      } catch (IOException e) {
        return result;
      }
    }
    List<String> out = new java.util.ArrayList<>();
    List<String> lines = lines(result);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      // A note of the analyze text report, or a summary warning, with its continuation lines
      // (either may be wrapped to the width): left out when it only says a file was ignored.
      boolean item =
          command == Command.ANALYZE && line.startsWith("  - ")
              || command == Command.SUMMARY && line.strip().startsWith("Warning:");
      if (item) {
        StringBuilder text = new StringBuilder(line);
        int j = i + 1;
        while (j < lines.size() && lines.get(j).startsWith("    ")) {
          text.append(' ').append(lines.get(j).strip());
          j++;
        }
        if (text.toString().contains(IGNORED)) {
          i = j - 1;
          continue;
        }
      }
      out.add(line);
    }
    if (command == Command.ANALYZE && !out.isEmpty() && out.get(out.size() - 1).equals("Notes")) {
      out.remove(out.size() - 1);
    }
    while (!out.isEmpty() && out.get(out.size() - 1).isBlank()) {
      out.remove(out.size() - 1);
    }
    return String.join("\n", out);
  }

  /**
   * The outcome of {@code run} of a command on a trace changed by a mutation.
   *
   * @param result {@link Command#result} of the run
   * @param baseline {@link Command#result} of the same command on the unmutated trace, or null when
   *     there is none (a synthetic trace: then any proper exit 0 counts as the same)
   * @param truncation whether the mutation was a truncation
   */
  static Outcome judge(
      Command command, WeftRunner.Run run, String result, String baseline, boolean truncation) {
    if (run.hung()) {
      return Outcome.HANG;
    }
    if (run.thrown() instanceof OutOfMemoryError || run.thrown() instanceof StackOverflowError) {
      return Outcome.OOM_SOE;
    }
    if (run.thrown() != null) {
      return Outcome.THROWN;
    }
    if (run.exit() == 3) {
      return Outcome.EXIT_3;
    }
    if (run.exit() == 1 && command == Command.VERIFY) {
      List<String> lines = lines(run.err());
      boolean error = lines.stream().anyMatch(l -> !l.startsWith("weft: warning: "));
      return error && wellFormedStderr(lines) ? Outcome.VERIFY_NOT_WELL_FORMED : Outcome.OTHER_EXIT;
    }
    if (run.exit() != 0 && run.exit() != 2) {
      return Outcome.OTHER_EXIT;
    }
    List<String> err = lines(run.err());
    for (String line : err) {
      if (!line.startsWith("weft: ")
          || line.contains("\tat ")
          || EXCEPTION_NAME.matcher(line).find()) {
        return Outcome.STACK_TRACE;
      }
    }
    if (run.exit() == 2) {
      return wellFormedError(command, err) ? Outcome.EXIT_2 : Outcome.EXIT_2_BAD_MESSAGE;
    }
    if (baseline == null || baseline.equals(result)) {
      return Outcome.SAME;
    }
    return truncation && markedCut(command, run) ? Outcome.MARKED_CUT : Outcome.SILENT_WRONG;
  }

  /** Only {@code weft: } lines, none a stack trace. */
  private static boolean wellFormedStderr(List<String> err) {
    for (String line : err) {
      if (!line.startsWith("weft: ") || line.contains("\tat ")) {
        return false;
      }
    }
    return true;
  }

  /** Warnings first, then the error: one line, or for verify one line per error. */
  static boolean wellFormedError(Command command, List<String> err) {
    int warnings = 0;
    while (warnings < err.size() && err.get(warnings).startsWith("weft: warning: ")) {
      warnings++;
    }
    int errors = err.size() - warnings;
    for (int i = warnings; i < err.size(); i++) {
      if (err.get(i).startsWith("weft: warning: ")) {
        return false;
      }
    }
    return command == Command.VERIFY ? errors >= 1 : errors == 1;
  }

  /** Whether the run says openly that the trace is cut, partial or incomplete. */
  static boolean markedCut(Command command, WeftRunner.Run run) {
    if (MARKED_CUT.matcher(run.out()).find() || MARKED_CUT.matcher(run.err()).find()) {
      return true;
    }
    if (command == Command.ANALYZE_JSON) {
      try {
        JsonNode trace = JSON.readTree(run.out()).path("trace");
        if (trace.has("status")) {
          return !trace.path("status").asText().equals("complete");
        }
        return trace.has("complete") && !trace.path("complete").asBoolean();
      } catch (IOException e) {
        return false;
      }
    }
    return false;
  }

  /** Where {@code result} first differs from {@code expected}, in one line. */
  static String firstDifference(String result, String expected) {
    List<String> a = lines(result);
    List<String> b = lines(expected);
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      String x = i < a.size() ? a.get(i).strip() : "(nothing)";
      String y = i < b.size() ? b.get(i).strip() : "(nothing)";
      if (!x.equals(y)) {
        int at = 0;
        while (at < x.length() && at < y.length() && x.charAt(at) == y.charAt(at)) {
          at++;
        }
        int from = Math.max(0, at - 30);
        return "line "
            + (i + 1)
            + (from > 0 ? " col " + (at + 1) : "")
            + ": '"
            + excerpt(x, from)
            + "', unmutated: '"
            + excerpt(y, from)
            + "'";
      }
    }
    return "same lines, other line ends";
  }

  private static String excerpt(String s, int from) {
    String t = from >= s.length() ? "" : s.substring(from);
    return (from > 0 ? "..." : "") + (t.length() > 80 ? t.substring(0, 80) + "..." : t);
  }

  static List<String> lines(String s) {
    return s.isEmpty() ? List.of() : List.of(s.split("\n"));
  }
}
