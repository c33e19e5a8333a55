package dev.weft.cli;

import dev.weft.check.CheckInputException;
import dev.weft.trace.TraceFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into one line {@code weft: <message>} on stderr and an exit code from {@link
 * ExitCodes}; never a stack trace, unless the environment variable {@code WEFT_DEBUG} is set.
 */
final class ErrorReporting implements IExecutionExceptionHandler, IParameterExceptionHandler {

  /** Wrong usage: an unknown option, a missing parameter, a value that does not convert. */
  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    PrintWriter err = cl.getErr();
    String command = cl.getCommandSpec().qualifiedName();
    String unknown = ex instanceof UnmatchedArgumentException ? null : unknownOption(cl, args);
    err.println(
        "weft: "
            + (unknown != null ? unknown : usageMessage(ex))
            + " (see '"
            + command
            + " --help')");
    debug(ex, err, cl);
    err.flush();
    return ExitCodes.BAD_INPUT;
  }

  /**
   * The parse problem in one line; for a mistyped command or option, what was probably meant
   * (picocli's suggestions: the names closest to what was typed).
   */
  static String usageMessage(ParameterException ex) {
    if (!(ex instanceof UnmatchedArgumentException)) {
      return oneLine(ex.getMessage());
    }
    UnmatchedArgumentException u = (UnmatchedArgumentException) ex;
    List<String> unmatched = u.getUnmatched();
    String typed = unmatched.isEmpty() ? "" : unmatched.get(0);
    boolean command = !typed.startsWith("-") && !u.getCommandLine().getSubcommands().isEmpty();
    boolean option = typed.startsWith("-") && !typed.equals("-") && !typed.equals("--");
    // Only the first unknown word is named: what follows it is most likely its value.
    String message =
        command
            ? "'" + typed + "' is not a weft command"
            : option ? "Unknown option: '" + typed + "'" : oneLine(ex.getMessage());
    List<String> suggestions = u.getSuggestions();
    if (option) {
      suggestions =
          Suggestions.closest(
              typed, u.getCommandLine().getCommandSpec().optionsMap().keySet(), suggestions);
    }
    if (!suggestions.isEmpty()) {
      List<String> shown = suggestions.subList(0, Math.min(3, suggestions.size()));
      message += "; did you mean '" + String.join("' or '", shown) + "'?";
    }
    return message;
  }

  /**
   * When another problem was found first (e.g. {@code weft attach --duraton 5s} reads {@code 5s} as
   * the PID), the mistyped option behind it, with what was probably meant; else null. Not for
   * {@code run} and {@code demo}, which pass options they do not know on.
   */
  private static String unknownOption(CommandLine cl, String[] args) {
    String name = cl.getCommandName();
    if (args == null || name.equals("run") || name.equals("demo")) {
      return null;
    }
    java.util.Set<String> known = cl.getCommandSpec().optionsMap().keySet();
    for (String a : args) {
      if (a.equals("--")) {
        return null;
      }
      String word = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (word.length() > 1 && word.startsWith("-") && !known.contains(word) && !isNumber(word)) {
        List<String> near = Suggestions.closest(word, known, List.of());
        return "Unknown option: '"
            + word
            + "'"
            + (near.isEmpty()
                ? ""
                : "; did you mean '"
                    + String.join("' or '", near.subList(0, Math.min(3, near.size())))
                    + "'?");
      }
    }
    return null;
  }

  private static boolean isNumber(String s) {
    return s.matches("-[0-9.]+[a-z%]*");
  }

  /** A command failed while running. */
  @Override
  public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parseResult) {
    PrintWriter err = cl.getErr();
    int code = exitCode(ex);
    err.println("weft: " + message(ex));
    debug(ex, err, cl);
    err.flush();
    return code;
  }

  /** The exit code for a failure: bad input for what the user gave us, internal error otherwise. */
  static int exitCode(Throwable t) {
    if (t instanceof BadInputException
        || t instanceof CheckInputException
        || t instanceof TraceFormatException
        || t instanceof IOException
        || t instanceof UncheckedIOException) {
      return ExitCodes.BAD_INPUT;
    }
    return ExitCodes.INTERNAL_ERROR;
  }

  /** One line describing a failure. */
  static String message(Throwable t) {
    if (t instanceof BadInputException
        || t instanceof CheckInputException
        || t instanceof TraceFormatException) {
      return oneLine(t.getMessage());
    }
    if (t instanceof UncheckedIOException && t.getCause() != null) {
      return describe(((UncheckedIOException) t).getCause());
    }
    if (t instanceof IOException) {
      return describe((IOException) t);
    }
    if (t instanceof OutOfMemoryError) {
      return "out of memory ("
          + Runtime.getRuntime().maxMemory() / (1024 * 1024)
          + " MiB of heap): give weft more, e.g. WEFT_JAVA_OPTS=-Xmx4g (an analysis keeps a few"
          + " KiB per thread, and state per lock and per call path)";
    }
    return "internal error: "
        + t.getClass().getName()
        + (t.getMessage() == null ? "" : ": " + oneLine(t.getMessage()))
        + " (set WEFT_DEBUG=1 to see where)";
  }

  /** An I/O problem in words, naming the file. */
  static String describe(IOException e) {
    return CheckInputException.describe(e);
  }

  /** The first line of a message (picocli and the JDK sometimes add more), trimmed. */
  static String oneLine(String message) {
    return CheckInputException.oneLine(message);
  }

  private static void debug(Throwable t, PrintWriter err, CommandLine cl) {
    Object root = cl.getCommandSpec().root().userObject();
    String debug = root instanceof WeftCommand ? ((WeftCommand) root).env("WEFT_DEBUG") : null;
    if (debug != null && !debug.isEmpty() && !debug.equals("0")) {
      t.printStackTrace(err);
    }
  }
}
