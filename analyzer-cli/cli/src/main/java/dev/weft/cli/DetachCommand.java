package dev.weft.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code weft detach PID}: stops a recording in a running JVM, whether {@code weft attach} or
 * {@code -javaagent} started it. The agent closes the trace and restores the original bytecode of
 * every class it changed; the program runs on.
 */
@Command(
    name = "detach",
    mixinStandardHelpOptions = true,
    description = {
      "Stop recording a running JVM: close the trace and restore the original bytecode.",
      "Works for recordings started by 'weft attach' and by -javaagent (weft run). Says where"
          + " the trace is."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:detached",
      "2:bad usage, PID is not a JVM weft can attach to, or it is not being recorded"
    })
final class DetachCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "PID", description = "The process id of a recorded JVM.")
  long pid;

  @Option(
      names = "--agent",
      paramLabel = "JAR",
      description =
          "The agent jar (default: $WEFT_HOME/agent/target/weft-agent.jar, or weft-agent.jar next"
              + " to weft.jar).")
  Path agent;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Path agentJar = WeftHome.agentJar(WeftCommand.root(spec), agent);
    AttachCommand.requireAttachApi();
    String reply;
    try (TargetJvm target = TargetJvm.attach(pid)) {
      if (target.featureVersion() > 0 && target.featureVersion() < 17) {
        throw new BadInputException(
            "process " + pid + " runs Java " + target.javaVersion() + ": it has no Weft agent");
      }
      reply = target.loadAgent(agentJar, "detach").answer();
    }
    if (reply.equals("idle")) {
      throw new BadInputException("process " + pid + " is not being recorded by Weft");
    }
    if (!reply.startsWith("detached ")) {
      throw new BadInputException(
          "unexpected answer from the agent in process " + pid + ": " + reply);
    }
    String dir = reply.substring("detached ".length());
    PrintWriter err = spec.commandLine().getErr();
    err.println(
        "weft: detached from process "
            + pid
            + ", original bytecode restored; trace in "
            + AttachCommand.withNextStep(dir));
    err.flush();
    return ExitCodes.OK;
  }
}
