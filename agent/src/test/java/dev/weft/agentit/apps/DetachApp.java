package dev.weft.agentit.apps;

import dev.weft.api.Region;
import dev.weft.api.Traced;
import dev.weft.api.Weft;

/**
 * Records a few regions, detaches the agent through its public entry point (as {@code weft detach}
 * will), then runs the same code again. Prints what it observes.
 */
public final class DetachApp {
  @Traced
  static int work(int x) {
    return x + 1;
  }

  static int round(String name) {
    int s = 0;
    for (int i = 0; i < 3; i++) {
      try (Region r = Weft.region(name)) {
        s += work(i);
      }
    }
    return s;
  }

  public static void main(String[] args) throws Exception {
    int s = round("before");
    System.out.println("recording before: " + Weft.isRecording());
    Object dir = Class.forName("dev.weft.agent.AgentLoader").getMethod("detach").invoke(null);
    System.out.println("detached: " + (dir != null));
    Object again = Class.forName("dev.weft.agent.AgentLoader").getMethod("detach").invoke(null);
    System.out.println("second detach: " + again);
    Weft.on();
    s += round("after");
    System.out.println("recording after: " + Weft.isRecording());
    System.out.println("sum " + s);
  }
}
