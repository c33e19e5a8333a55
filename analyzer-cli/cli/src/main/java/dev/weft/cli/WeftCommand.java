package dev.weft.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code weft} command: the root of all subcommands and the jar's main class. Run without a
 * subcommand it prints its usage.
 *
 * <p>{@link #SUBCOMMANDS} is the only place a subcommand is registered. Building picocli's model of
 * a subcommand costs tens of milliseconds of the JVM's start, so {@link #main} builds only the one
 * it runs (which matters for {@code weft attach}, whose start delays the recording).
 */
@Command(
    name = "weft",
    mixinStandardHelpOptions = true,
    versionProvider = WeftVersion.class,
    description = "Record, inspect and analyse wait states of parallel Java programs.",
    synopsisSubcommandLabel = "COMMAND",
    commandListHeading = "%nCommands:%n",
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  OK",
      "  1  a check failed (weft check)",
      "  2  bad usage or bad input (one line 'weft: <message>' on stderr)",
      "  3  internal error",
      "  weft run returns the exit code of the program it ran."
    })
public final class WeftCommand implements Runnable {
  /** Every subcommand, in the order of the usage's command list. */
  private static final List<Class<?>> SUBCOMMANDS =
      List.of(
          DemoCommand.class,
          RunCommand.class,
          AttachCommand.class,
          DetachCommand.class,
          PrintCommand.class,
          SummaryCommand.class,
          VerifyCommand.class,
          AnalyzeCommand.class,
          ExportCommand.class,
          DiffCommand.class,
          CheckCommand.class,
          StoreCommand.class,
          QueryCommand.class,
          TrendCommand.class,
          CompletionCommand.class,
          HelpCommand.class);

  /** Subcommands that describe the others, so they never run alone. */
  private static final Set<Class<?>> NEED_ALL = Set.of(CompletionCommand.class, HelpCommand.class);

  /** When {@link #main} was entered, in microseconds since the epoch; 0 when run otherwise. */
  private static volatile long mainEpochMicros;

  @Spec CommandSpec spec;

  private final Map<String, String> environment;
  private final boolean stdoutIsTerminal;

  /** A root command that reads the process environment and whose stdout is not a terminal. */
  public WeftCommand() {
    this(System.getenv(), false);
  }

  /**
   * A root command with a given environment (for {@code GITHUB_ACTIONS}, {@code WEFT_HOME}, {@code
   * JAVA_HOME}, {@code NO_COLOR}, {@code WEFT_DEBUG}) and terminal.
   */
  public WeftCommand(Map<String, String> environment, boolean stdoutIsTerminal) {
    this.environment = Map.copyOf(environment);
    this.stdoutIsTerminal = stdoutIsTerminal;
  }

  /** Prints the usage: {@code weft} alone is a request for help. */
  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** An environment variable, or null. */
  String env(String name) {
    return environment.get(name);
  }

  boolean stdoutIsTerminal() {
    return stdoutIsTerminal;
  }

  /** The root command object of the command a spec belongs to. */
  static WeftCommand root(CommandSpec spec) {
    Object root = spec.root().userObject();
    return root instanceof WeftCommand ? (WeftCommand) root : new WeftCommand();
  }

  /** A command line for {@code root} with every subcommand, weft's error handling and options. */
  public static CommandLine newCommandLine(WeftCommand root) {
    return newCommandLine(root, null);
  }

  /**
   * A command line for running {@code args}: when the first argument names a subcommand, only that
   * one is registered (its usage, errors and behaviour are the same); otherwise all are.
   */
  public static CommandLine newCommandLine(WeftCommand root, String[] args) {
    Class<?> only = args == null || args.length == 0 ? null : subcommandNamed(args[0]);
    CommandLine cl = new CommandLine(root);
    for (Class<?> sub : SUBCOMMANDS) {
      if (only == null || sub == only) {
        cl.addSubcommand(sub);
      }
    }
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    // Arguments starting with '@' are file names, not picocli argument files (java has its own).
    cl.setExpandAtFiles(false);
    // 'weft run Main -Xfoo': everything from the program on belongs to java; so does the first
    // option weft does not know ('weft run -jar app.jar', 'weft run -Xmx1g -cp lib Main'), as
    // people type after 'java'.
    stopAtPositional(cl, "run");
    // 'weft demo lock-contention --lock synchronized': the scenario's options are its own.
    stopAtPositional(cl, "demo");
    // Help is made only when asked for, so the terminal is only looked at then.
    cl.setHelpFactory(WeftCommand::help);
    ErrorReporting errors = new ErrorReporting();
    cl.setExecutionExceptionHandler(errors);
    cl.setParameterExceptionHandler(errors);
    return cl;
  }

  /**
   * Help as wide as other text ({@code COLUMNS} or the terminal, within 55 to 120 columns), in
   * colour as the command's {@code --color} says (picocli's own choice, which heeds {@code
   * NO_COLOR}, for {@code auto}).
   */
  private static CommandLine.Help help(CommandSpec spec, CommandLine.Help.ColorScheme scheme) {
    spec.usageMessage().width(Math.max(55, Math.min(120, Terminal.columns(root(spec)))));
    CommandSpec color = spec.mixins().get("color");
    if (color != null
        && color.userObject() instanceof ColorOption c
        && c.when != ColorOption.When.AUTO) {
      scheme =
          CommandLine.Help.defaultColorScheme(
              c.when == ColorOption.When.ALWAYS
                  ? CommandLine.Help.Ansi.ON
                  : CommandLine.Help.Ansi.OFF);
    }
    return new CommandLine.Help(spec, scheme);
  }

  /** The subcommand called {@code name} that can run alone, or null. */
  private static Class<?> subcommandNamed(String name) {
    for (Class<?> sub : SUBCOMMANDS) {
      Command c = sub.getAnnotation(Command.class);
      if (c != null && c.name().equals(name)) {
        return NEED_ALL.contains(sub) ? null : sub;
      }
    }
    return null;
  }

  private static void stopAtPositional(CommandLine cl, String subcommand) {
    CommandLine sub = cl.getSubcommands().get(subcommand);
    if (sub != null) {
      sub.setStopAtPositional(true);
      sub.setUnmatchedOptionsArePositionalParams(subcommand.equals("run"));
    }
  }

  /**
   * When {@link #main} was entered, in microseconds since the epoch (for {@code weft attach
   * --timings}); 0 when weft runs in-process.
   */
  static long mainEpochMicros() {
    return mainEpochMicros;
  }

  /** The wall clock in microseconds since the epoch. */
  static long epochMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  /** Runs {@code weft} with the process environment and exits with its exit code. */
  public static void main(String[] args) {
    mainEpochMicros = epochMicros();
    int code;
    try {
      CommandLine cl =
          newCommandLine(new WeftCommand(System.getenv(), Terminal.stdoutIsTerminal()), args);
      code = cl.execute(args);
    } catch (Throwable t) { // an Error (out of memory, stack overflow): still one line
      PrintWriter err = new PrintWriter(System.err, true);
      err.println("weft: " + ErrorReporting.message(t));
      code = ErrorReporting.exitCode(t);
    }
    System.exit(code);
  }
}
