package dev.weft.agent;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The application classes with a method running at the attach, which {@code attach.skip_running}
 * leaves alone: a retransformed class's running frames are deoptimised and never compiled again, so
 * a loop that never returns would run interpreted for the rest of the program (ATTACH.md, "Costs").
 * Found from every thread's stack, by class name: a name shared by classes of two loaders skips
 * both.
 */
final class RunningClasses {
  /** How many of the skipped classes the trace attribute names. */
  private static final int NAMED = 10;

  private final Set<String> names = new LinkedHashSet<>();
  private final List<String> skipped = new ArrayList<>();

  /** Reads the stacks of all threads but the agent's, now. */
  static RunningClasses now() {
    RunningClasses r = new RunningClasses();
    for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
      for (StackTraceElement e : stack) {
        if (!e.getClassName().startsWith("dev.weft.agent.")) {
          r.names.add(e.getClassName());
        }
      }
    }
    return r;
  }

  /** Whether {@code c} has a method running; if so it is counted as skipped. */
  boolean skips(Class<?> c) {
    if (!names.contains(c.getName())) {
      return false;
    }
    skipped.add(c.getName());
    return true;
  }

  /**
   * The trace attribute {@code agent.skipped_running_classes}: {@code 2 (com.acme.Worker,
   * com.acme.Server)}, the first ten named.
   */
  String attribute() {
    StringJoiner first = new StringJoiner(", ", " (", skipped.size() > NAMED ? ", …)" : ")");
    first.setEmptyValue("");
    for (int i = 0; i < Math.min(NAMED, skipped.size()); i++) {
      first.add(skipped.get(i));
    }
    return skipped.size() + first.toString();
  }
}
