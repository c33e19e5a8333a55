package dev.weft.agentit.apps;

import dev.weft.api.Region;
import dev.weft.api.Traced;
import dev.weft.api.Weft;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Enters many regions: {@code BusyApp N} runs N iterations and prints a checksum; {@code BusyApp
 * forever} reports after every 10000 entered regions ("entered K") and never stops.
 */
public final class BusyApp {
  @Traced
  static long step(long x) {
    return x * 31 + 7;
  }

  public static void main(String[] args) throws Exception {
    boolean forever = args[0].equals("forever");
    long n = forever ? Long.MAX_VALUE : Long.parseLong(args[0]);
    long acc = 0;
    long entered = 0;
    for (long i = 0; i < n; i++) {
      try (Region r = Weft.region("busy")) {
        acc = step(acc ^ i);
      }
      entered += 2; // the region and the @Traced method
      if (forever && entered % 10_000 == 0) {
        System.out.println("entered " + entered);
        System.out.flush();
        Thread.sleep(1);
      }
    }
    // Past System.out: its PrintStream's monitor is recorded, and tests count this app's events
    // exactly.
    FileOutputStream out = new FileOutputStream(FileDescriptor.out);
    out.write(("checksum " + acc + System.lineSeparator()).getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
