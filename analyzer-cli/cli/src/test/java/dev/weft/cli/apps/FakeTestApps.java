package dev.weft.cli.apps;

import dev.weft.api.Region;
import dev.weft.api.Weft;

/**
 * Stands in for weft-testapps.jar in the {@code weft demo} tests: scenario {@code ticks [N]} enters
 * the region {@code tick} N times (default 100) and exits 0; any other scenario is refused like the
 * real test apps refuse it (one line on stderr, exit 2).
 */
public final class FakeTestApps {
  private FakeTestApps() {}

  public static void main(String[] args) {
    if (args.length == 0 || !args[0].equals("ticks")) {
      System.err.println(
          "weft-testapps: unknown scenario '"
              + (args.length == 0 ? "" : args[0])
              + "' (see --help)");
      System.exit(2);
    }
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    long sum = 0;
    for (int i = 0; i < n; i++) {
      try (Region r = Weft.region("tick")) {
        sum += i;
      }
    }
    System.out.println("ticks " + n + " sum " + sum);
  }
}
