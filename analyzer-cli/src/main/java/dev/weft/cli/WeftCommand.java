package dev.weft.cli;

import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code weft} command: the root of all subcommands and the jar's main class. Run without a
 * subcommand it prints its usage.
 *
 * <p>The subcommand list below is the only place a subcommand is registered.
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
    },
    subcommands = {
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
      CompletionCommand.class,
      HelpCommand.class
    })
public final class WeftCommand implements Runnable {

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

  /** A command line for {@code root}, with weft's error handling and option conventions. */
  public static CommandLine newCommandLine(WeftCommand root) {
    ErrorReporting errors = new ErrorReporting();
    CommandLine cl = new CommandLine(root);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    // Arguments starting with '@' are file names, not picocli argument files (java has its own).
    cl.setExpandAtFiles(false);
    // 'weft run Main -Xfoo': everything from the program on belongs to java.
    cl.getSubcommands().get("run").setStopAtPositional(true);
    // 'weft demo lock-contention --lock synchronized': the scenario's options are its own.
    cl.getSubcommands().get("demo").setStopAtPositional(true);
    cl.setExecutionExceptionHandler(errors);
    cl.setParameterExceptionHandler(errors);
    return cl;
  }

  /** Runs {@code weft} with the process environment and exits with its exit code. */
  public static void main(String[] args) {
    int code;
    try {
      CommandLine cl =
          newCommandLine(new WeftCommand(System.getenv(), Terminal.stdoutIsTerminal()));
      code = cl.execute(args);
    } catch (Throwable t) { // an Error (out of memory, stack overflow): still one line
      PrintWriter err = new PrintWriter(System.err, true);
      err.println("weft: " + ErrorReporting.message(t));
      code = ErrorReporting.exitCode(t);
    }
    System.exit(code);
  }
}
