#!/usr/bin/env bash
# Measures what recording costs per @Traced call: a loop calls a tiny @Traced method (2 events: ENTER
# and EXIT) without the agent, with the agent recording, and with the agent but measurement off
# (start=off: woven calls reach the recorder, which returns at once).
#
#   agent/eventcost.sh [java]
#
# Needs agent/target/weft-agent.jar and api/target/weft-api-*.jar (mvn -B -q -pl agent -am package
# -DskipTests). Prints ns per call (median of 7 rounds of 2,000,000 calls after warm-up) for each case
# and the added cost per call and per event. Expect roughly one System.nanoTime() (~25 ns) plus a few
# ns per event; a noisy host shows up as spread between rounds.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java="${1:-java}"
jar="$here/target/weft-agent.jar"
api="$(ls "$here"/../api/target/weft-api-*.jar 2>/dev/null | grep -v sources | head -1 || true)"
[[ -f "$jar" && -n "$api" ]] || { echo "eventcost.sh: build the agent and api first" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/classes"
cat > "$work/src/EventCost.java" <<'JAVA'
import dev.weft.api.Traced;
import dev.weft.api.Weft;
import java.util.Arrays;

public class EventCost {
  static long sink;

  @Traced
  static void tiny(long i) {
    sink += i;
  }

  public static void main(String[] args) {
    int calls = 2_000_000;
    if (args.length > 0 && args[0].equals("clock")) {
      double[] ns = new double[7];
      for (int r = -3; r < ns.length; r++) {
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
          sink += System.nanoTime();
        }
        if (r >= 0) {
          ns[r] = (System.nanoTime() - t0) / (double) calls;
        }
      }
      Arrays.sort(ns);
      System.out.printf("%.1f%n", ns[ns.length / 2]);
      return;
    }
    for (int i = 0; i < 5 * calls; i++) {
      tiny(i); // warm-up: compile the loop and the woven method
    }
    if (args.length > 0 && args[0].equals("off")) {
      Weft.off();
    }
    double[] ns = new double[7];
    for (int r = 0; r < ns.length; r++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < calls; i++) {
        tiny(i);
      }
      ns[r] = (System.nanoTime() - t0) / (double) calls;
    }
    Arrays.sort(ns);
    System.out.printf("%.1f%n", ns[ns.length / 2]);
  }
}
JAVA
javac --release 17 -cp "$api" -d "$work/classes" "$work/src/EventCost.java"
cp="$work/classes:$api"
clock=$("$java" -cp "$cp" EventCost clock)
base=$("$java" -cp "$cp" EventCost)
rec=$("$java" "-javaagent:$jar=out=$work/t1" -cp "$cp" EventCost)
off=$("$java" "-javaagent:$jar=out=$work/t2" -cp "$cp" EventCost off)
echo "java: $("$java" -version 2>&1 | head -1)"
echo "ns per System.nanoTime() on this host now:   $clock (the floor of one recorded event)"
echo "ns per @Traced call, no agent:              $base"
echo "ns per @Traced call, agent, recording:      $rec"
echo "ns per @Traced call, agent, measurement off: $off"
awk -v b="$base" -v r="$rec" 'BEGIN { printf "added per call: %.1f ns, per event (2 per call): %.1f ns\n", r - b, (r - b) / 2 }'
