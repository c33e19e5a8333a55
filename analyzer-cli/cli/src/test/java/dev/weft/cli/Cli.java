package dev.weft.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine;

/** Runs {@code weft} in-process, as {@link WeftCommand#main} would, capturing its output. */
final class Cli {
  private Cli() {}

  /** What a run printed and returned. */
  record Result(int exit, String out, String err) {
    List<String> outLines() {
      return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }

    List<String> errLines() {
      return err.isEmpty() ? List.of() : List.of(err.split("\n"));
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  static Result run(String... args) {
    return run(Map.of(), args);
  }

  static Result run(Map<String, String> env, String... args) {
    return run(env, cl -> {}, args);
  }

  /**
   * Runs as {@link #run(String...)} does, handing {@code onErr} everything written to stderr so far
   * after each line: a test can act when a run in another thread reaches a point.
   */
  static Result runWatchingErr(Consumer<String> onErr, String... args) {
    StringWriter err =
        new StringWriter() {
          @Override
          public void flush() {
            super.flush();
            onErr.accept(toString());
          }
        };
    return run(Map.of(), cl -> {}, err, false, args);
  }

  /** Runs as {@link #run(Map, String...)} does, with stdout taken for an interactive terminal. */
  static Result runOnTerminal(Map<String, String> env, String... args) {
    return run(env, cl -> {}, new StringWriter(), true, args);
  }

  /** Runs with {@code setup} applied to the command line first (e.g. to reach a subcommand). */
  static Result run(Map<String, String> env, Consumer<CommandLine> setup, String... args) {
    return run(env, setup, new StringWriter(), false, args);
  }

  private static Result run(
      Map<String, String> env,
      Consumer<CommandLine> setup,
      StringWriter err,
      boolean terminal,
      String... args) {
    CommandLine cl = WeftCommand.newCommandLine(new WeftCommand(env, terminal));
    setup.accept(cl);
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int exit = cl.execute(args);
    return new Result(exit, out.toString(), err.toString());
  }
}
