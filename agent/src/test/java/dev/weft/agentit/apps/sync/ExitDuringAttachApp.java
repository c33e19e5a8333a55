package dev.weft.agentit.apps.sync;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A program that ends while the agent it attached to itself is still starting: {@code
 * ExitDuringAttachApp LOG AGENT_JAR OPTIONS} (OPTIONS name the trace directory as {@code out=DIR})
 * loads the agent on a thread of its own and, as soon as the agent has opened the trace (its
 * definitions file exists, before the loaded classes are woven), calls {@code System.exit(0)}.
 * Prints {@code done}.
 */
public final class ExitDuringAttachApp {
  private ExitDuringAttachApp() {}

  public static void main(String[] args) throws Exception {
    Path trace = null;
    for (String o : args[2].split(",")) {
      if (o.startsWith("out=")) {
        trace = Path.of(o.substring(4));
      }
    }
    Path defs = trace.resolve("defs.wdf");
    Thread attach =
        new Thread(
            () -> {
              try {
                SelfAttach.loadAgent(args[1], args[2]);
              } catch (Exception e) {
                // The JVM exits under it: the connection may be lost.
              }
            },
            "attacher");
    attach.setDaemon(true);
    attach.start();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!Files.exists(defs) && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    System.out.println("done");
    System.exit(0);
  }
}
