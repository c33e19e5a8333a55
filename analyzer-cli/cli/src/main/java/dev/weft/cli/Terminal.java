package dev.weft.cli;

import java.io.Console;
import java.lang.reflect.Method;

/** Whether the JVM's standard output is an interactive terminal (colours are only used then). */
final class Terminal {
  private Terminal() {}

  /**
   * True when stdout is a terminal. On JDK 17-21 {@link System#console()} exists only then; JDK 22+
   * always returns a console and says through {@code Console.isTerminal()}.
   */
  static boolean stdoutIsTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (NoSuchMethodException e) {
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }
}
