package dev.weft.agentit.apps;

import dev.weft.api.Region;
import dev.weft.api.Traced;
import dev.weft.api.Weft;
import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * Runs one round of regions, says "ready", waits for a line on stdin (the test attaches the agent
 * meanwhile), then runs another round and says whether it was recorded.
 */
public final class AttachApp {
  @Traced
  static int work(int x) {
    return x * 3;
  }

  static int round() {
    int s = 0;
    for (int i = 0; i < 4; i++) {
      try (Region r = Weft.region("attach-round")) {
        s += work(i);
      }
    }
    return s;
  }

  public static void main(String[] args) throws Exception {
    int s = round();
    System.out.println("ready " + Weft.isRecording());
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in)).readLine();
    s += round();
    System.out.println("recording " + Weft.isRecording() + " sum " + s);
  }
}
