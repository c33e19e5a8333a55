package dev.weft.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code weft run [options] -- JAVA_ARGS}: runs a Java program with the Weft agent attached and
 * says where its trace is. The program's stdout and stderr are its own (inherited), and its exit
 * code is weft's.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Run a Java program with the Weft agent and record a trace.",
      "Everything after '--', or from the first argument that is not a weft option, is passed"
          + " to java as you would type it after 'java', e.g.:",
      "  weft run -jar app.jar arg1",
      "  weft run -Xmx2g -cp app.jar com.example.Main arg1",
      "  weft run --out traces/t1 --opt tasks=aggregate -- -jar app.jar",
      "The program's output is shown as it is and weft exits with its exit code; the trace"
          + " directory is printed on stderr when it ends."
    })
final class RunCommand implements Callable<Integer> {
  /** Java launcher options that take a value as the next argument. */
  private static final Set<String> OPTIONS_WITH_VALUE =
      Set.of(
          "-cp",
          "-classpath",
          "--class-path",
          "-p",
          "--module-path",
          "--upgrade-module-path",
          "--add-modules",
          "--limit-modules",
          "--add-opens",
          "--add-exports",
          "--add-reads",
          "--patch-module",
          "--enable-native-access",
          "--source");

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Trace directory (must not exist or be empty; default:"
              + " weft-traces/<main-class-or-jar>-<yyyyMMdd-HHmmss>).")
  Path out;

  @Option(
      names = "--opt",
      paramLabel = "KEY=VALUE",
      completionCandidates = CompletionValues.AgentOptionKeys.class,
      description = "An agent option (see the agent's documentation); repeatable.")
  List<String> options = new ArrayList<>();

  @Option(
      names = "--java",
      paramLabel = "PATH",
      description =
          "The java executable (default: the JDK running weft, else $JAVA_HOME/bin/java).")
  Path java;

  @Option(
      names = "--agent",
      paramLabel = "JAR",
      description =
          "The agent jar (default: $WEFT_HOME/agent/target/weft-agent.jar, or weft-agent.jar next"
              + " to weft.jar).")
  Path agent;

  @Parameters(
      arity = "1..*",
      paramLabel = "JAVA_ARGS",
      description =
          "Arguments for java: JVM options, then the main class or -jar JAR, then its arguments.")
  List<String> javaArgs = new ArrayList<>();

  @Spec CommandSpec spec;

  /** Where the program's stdout goes: weft's own stdout (tests send it to a file). */
  ProcessBuilder.Redirect programOut = ProcessBuilder.Redirect.INHERIT;

  /** Where the program's stderr goes: weft's own stderr (tests send it to a file). */
  ProcessBuilder.Redirect programErr = ProcessBuilder.Redirect.INHERIT;

  @Override
  public Integer call() throws InterruptedException {
    WeftCommand root = WeftCommand.root(spec);
    Path agentJar = WeftHome.agentJar(root, agent);
    Path javaExe = WeftHome.javaExecutable(root, java);
    Path dir = (out != null ? out : defaultOut(javaArgs)).toAbsolutePath().normalize();
    String agentOptions = agentOptions(dir, options);
    // Checked before the program starts: the agent itself would only warn and let it run
    // unrecorded.
    checkOut(dir);
    AgentOptionsCheck.check(agentJar, agentOptions);

    List<String> command = new ArrayList<>();
    command.add(javaExe.toString());
    command.add("-javaagent:" + agentJar + "=" + agentOptions);
    command.addAll(javaArgs);

    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.INHERIT)
              .redirectOutput(programOut)
              .redirectError(programErr)
              .start();
    } catch (IOException e) {
      throw new BadInputException("cannot run " + javaExe + ": " + ErrorReporting.describe(e), e);
    }
    PrintWriter err = spec.commandLine().getErr();
    AtomicBoolean said = new AtomicBoolean();
    // Said once, by the main thread or the shutdown hook, whichever comes first; the other waits
    // until the line is out (the JVM halts as soon as the hook returns).
    Runnable sayWhere =
        () -> {
          synchronized (said) {
            if (!said.getAndSet(true)) {
              if (Files.isDirectory(dir)) {
                err.println("weft: trace in " + dir + "  (next: weft summary " + dir + ")");
              } else {
                err.println("weft: no trace was written to " + dir);
              }
              err.flush();
            }
          }
        };
    // On Ctrl-C the program gets the signal too; give it time to finish its trace, and say where
    // it is, before weft exits (weft's main thread may never get to say it).
    Thread waiter =
        new Thread(
            () -> {
              try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                  process.destroy();
                  process.waitFor(10, TimeUnit.SECONDS);
                }
              } catch (InterruptedException e) {
                process.destroy();
              }
              sayWhere.run();
            },
            "weft-run-shutdown");
    Runtime.getRuntime().addShutdownHook(waiter);
    int exit;
    try {
      exit = process.waitFor();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(waiter);
      } catch (IllegalStateException e) {
        // already shutting down: the hook does its job
      }
    }
    sayWhere.run();
    return exit;
  }

  /**
   * {@code out=DIR,k=v,...}: the agent's option syntax after the {@code =} of -javaagent, from
   * {@code --out} and the {@code --opt KEY=VALUE} list.
   */
  static String agentOptions(Path dir, List<String> options) {
    StringBuilder s = new StringBuilder("out=").append(checkValue("--out", dir.toString()));
    Map<String, String> seen = new LinkedHashMap<>();
    for (String o : options) {
      int eq = o.indexOf('=');
      if (eq <= 0) {
        throw new BadInputException("--opt " + o + ": expected KEY=VALUE");
      }
      String key = o.substring(0, eq).strip();
      if (key.equals("out")) {
        throw new BadInputException("--opt out=...: use --out DIR to choose the trace directory");
      }
      if (seen.put(key, o) != null) {
        throw new BadInputException("--opt " + key + " given twice");
      }
      s.append(',').append(checkValue("--opt", o));
    }
    return s.toString();
  }

  /** The trace directory must not exist, or be an empty directory. */
  static void checkOut(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new BadInputException("--out " + dir + ": exists and is not a directory");
    }
    try (var entries = Files.list(dir)) {
      if (entries.findAny().isPresent()) {
        throw new BadInputException(
            "--out " + dir + ": not empty (choose a new directory, or remove the old trace)");
      }
    } catch (IOException e) {
      throw new BadInputException("--out " + dir + ": " + ErrorReporting.describe(e), e);
    }
  }

  static String checkValue(String option, String value) {
    if (value.indexOf(',') >= 0) {
      throw new BadInputException(
          option + " " + value + ": may not contain ',' (it separates agent options)");
    }
    return value;
  }

  /** {@code weft-traces/<name>-<yyyyMMdd-HHmmss>}, made unique with a suffix if it exists. */
  static Path defaultOut(List<String> javaArgs) {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    Path base = Path.of("weft-traces", programName(javaArgs) + "-" + stamp);
    Path candidate = base;
    for (int i = 2; Files.exists(candidate); i++) {
      candidate = Path.of(base + "-" + i);
    }
    return candidate;
  }

  /** The simple name of the main class, the jar's name, or {@code java}. */
  static String programName(List<String> args) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      String next = i + 1 < args.size() ? args.get(i + 1) : null;
      if (a.equals("-jar") && next != null) {
        String file = Path.of(next).getFileName().toString();
        return sanitize(file.endsWith(".jar") ? file.substring(0, file.length() - 4) : file);
      }
      if ((a.equals("-m") || a.equals("--module")) && next != null) {
        return sanitize(moduleMain(next));
      }
      if (a.startsWith("--module=")) {
        return sanitize(moduleMain(a.substring("--module=".length())));
      }
      if (OPTIONS_WITH_VALUE.contains(a)) {
        i++;
        continue;
      }
      if (a.startsWith("-")) {
        continue;
      }
      if (a.endsWith(".java")) {
        String file = Path.of(a).getFileName().toString();
        return sanitize(file.substring(0, file.length() - 5));
      }
      return sanitize(a.substring(a.lastIndexOf('.') + 1));
    }
    return "java";
  }

  private static String moduleMain(String spec) {
    int slash = spec.indexOf('/');
    String main = slash >= 0 ? spec.substring(slash + 1) : spec;
    return slash >= 0 ? main.substring(main.lastIndexOf('.') + 1) : main;
  }

  private static String sanitize(String name) {
    String s = name.replaceAll("[^A-Za-z0-9_.-]", "_");
    return s.isEmpty() ? "java" : s;
  }
}
