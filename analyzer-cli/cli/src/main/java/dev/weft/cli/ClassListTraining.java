package dev.weft.cli;

import com.sun.tools.attach.VirtualMachine;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * Loads the classes weft needs to start and to attach, so that the {@code ./weft} launcher can put
 * them in its class-data-sharing archive: it runs this once per build of weft.jar with {@code
 * -XX:DumpLoadedClassList}, then dumps the classes listed into an archive that later runs of weft
 * map instead of loading and verifying them from the jar (CLI.md, "The weft launcher").
 *
 * <p>It attaches to nothing and writes nothing: it builds every subcommand's model, renders the
 * usage, parses an attach command line, and lists the JVMs (which reads their performance data
 * files, as {@code VirtualMachine.attach} does, without signalling any).
 */
final class ClassListTraining {
  private ClassListTraining() {}

  public static void main(String[] args) throws ReflectiveOperationException {
    CommandLine cl = WeftCommand.newCommandLine(new WeftCommand());
    PrintWriter sink = new PrintWriter(new StringWriter());
    cl.setOut(sink);
    cl.setErr(sink);
    cl.execute("--help");
    cl.execute("attach", "--help");
    cl.parseArgs("attach", "1", "--duration", "0", "--out", "trace", "--timings");
    AttachCommand.requireAttachApi();
    VirtualMachine.list();
    Class.forName(TargetJvm.class.getName());
    Class.forName(TargetJvm.AgentReply.class.getName());
  }
}
