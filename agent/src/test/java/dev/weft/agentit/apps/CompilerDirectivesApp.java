package dev.weft.agentit.apps;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

/** Prints the JVM's compiler directives, as {@code jcmd PID Compiler.directives_print} does. */
public final class CompilerDirectivesApp {
  public static void main(String[] args) throws Exception {
    Object printed =
        ManagementFactory.getPlatformMBeanServer()
            .invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "compilerDirectivesPrint",
                new Object[] {new String[0]},
                new String[] {String[].class.getName()});
    System.out.println(printed);
  }
}
