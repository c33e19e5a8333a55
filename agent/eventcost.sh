#!/usr/bin/env bash
# Measures what recording costs per @Traced call: a loop calls a tiny @Traced method (2 events: ENTER
# and EXIT) without the agent, with the agent recording, and with the agent but measurement off
# (start=off: woven calls reach the recorder, which returns at once).
#
#   agent/eventcost.sh [java]
#
# Needs agent/target/weft-agent.jar and api/target/weft-api-*.jar (mvn -B -q -pl agent -am package
# -DskipTests). Prints ns per call (median of 7 rounds of 2,000,000 calls after warm-up; each case
# runs 3 times, interleaved, and the median is shown) and the added cost per call and per event.
# Times are the CPU time of the calling thread: on a shared host, preemption inflates wall-clock
# figures but hardly CPU time (set CLOCK=wall for elapsed time). Expect one System.nanoTime() plus
# the writing of the event (~15 ns) and the thread-local lookup and checks (~10 ns) per event.
#
# BASELINE_JAR=/path/to/other/weft-agent.jar adds a line for that agent jar (e.g. one built from an
# earlier commit), run interleaved with the others, to compare two versions in one run.
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
  static final boolean CPU = !"wall".equals(System.getenv("CLOCK"));
  static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  static long now() {
    return CPU ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }

  @Traced
  static void tiny(long i) {
    sink += i;
  }

  public static void main(String[] args) {
    int calls = 2_000_000;
    if (args.length > 0 && args[0].equals("clock")) {
      double[] ns = new double[7];
      for (int r = -3; r < ns.length; r++) {
        long t0 = now();
        for (int i = 0; i < calls; i++) {
          sink += System.nanoTime();
        }
        if (r >= 0) {
          ns[r] = (now() - t0) / (double) calls;
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
      long t0 = now();
      for (int i = 0; i < calls; i++) {
        tiny(i);
      }
      ns[r] = (now() - t0) / (double) calls;
    }
    Arrays.sort(ns);
    System.out.printf("%.1f%n", ns[ns.length / 2]);
  }
}
JAVA
javac --release 17 -cp "$api" -d "$work/classes" "$work/src/EventCost.java"
cp="$work/classes:$api"
old_jar="${BASELINE_JAR:-}"
declare -a clocks bases recs offs olds
for i in 1 2 3; do
  clocks+=("$("$java" -cp "$cp" EventCost clock)")
  bases+=("$("$java" -cp "$cp" EventCost)")
  recs+=("$("$java" "-javaagent:$jar=out=$work/t$i" -cp "$cp" EventCost)")
  offs+=("$("$java" "-javaagent:$jar=out=$work/o$i" -cp "$cp" EventCost off)")
  if [[ -n "$old_jar" ]]; then
    olds+=("$("$java" "-javaagent:$old_jar=out=$work/b$i" -cp "$cp" EventCost)")
  fi
done
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
clock=$(med "${clocks[@]}")
base=$(med "${bases[@]}")
rec=$(med "${recs[@]}")
off=$(med "${offs[@]}")
echo "java: $("$java" -version 2>&1 | head -1)"
echo "ns per System.nanoTime() on this host now:   $clock (${CLOCK:-cpu} time; the floor of one event)"
echo "ns per @Traced call, no agent:              $base"
echo "ns per @Traced call, agent, recording:      $rec"
echo "ns per @Traced call, agent, measurement off: $off"
awk -v b="$base" -v r="$rec" 'BEGIN { printf "added per call: %.1f ns, per event (2 per call): %.1f ns\n", r - b, (r - b) / 2 }'
if [[ -n "$old_jar" ]]; then
  old=$(med "${olds[@]}")
  echo "ns per @Traced call, baseline agent:        $old"
  awk -v b="$base" -v r="$old" 'BEGIN { printf "baseline added per call: %.1f ns, per event: %.1f ns\n", r - b, (r - b) / 2 }'
fi
