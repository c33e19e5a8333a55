#!/usr/bin/env bash
# Measures the JVM start-up time the agent adds: median wall time of N runs of a Hello-world program
# without an agent, with an empty agent (a premain that registers a retransforming no-op transformer:
# what any agent costs, e.g. the JVM stops using its archived module graph), and with the Weft agent
# (recording into a fresh directory each run).
#
#   agent/startup.sh [runs] [java]        e.g. agent/startup.sh 15 /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
#
# Needs agent/target/weft-agent.jar (mvn -B -q -pl agent -am package -DskipTests). Prints the two
# medians and the difference in milliseconds. Expect the difference to stay under 300 ms.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
runs="${1:-11}"
java="${2:-java}"
jar="$here/target/weft-agent.jar"
[[ -f "$jar" ]] || { echo "startup.sh: $jar missing; build the agent first" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/classes"
cat > "$work/src/Hello.java" <<'JAVA'
public class Hello {
  public static void main(String[] args) {
    System.out.println("Hello, world");
  }
}
JAVA
javac --release 17 -d "$work/classes" "$work/src/Hello.java"
mkdir -p "$work/empty/src" "$work/empty/classes"
cat > "$work/empty/src/EmptyAgent.java" <<'JAVA'
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;

public class EmptyAgent {
  public static void premain(String args, Instrumentation inst) {
    inst.addTransformer(new ClassFileTransformer() {}, true);
  }
}
JAVA
javac --release 17 -d "$work/empty/classes" "$work/empty/src/EmptyAgent.java"
printf 'Premain-Class: EmptyAgent\nCan-Retransform-Classes: true\n' > "$work/empty/manifest"
jar cfm "$work/empty.jar" "$work/empty/manifest" -C "$work/empty/classes" .

# Prints one run's wall time and CPU time (user + system, all threads) in milliseconds. On a busy
# host the wall time grows with the load; the CPU time much less so.
run_ms() {
  local TIMEFORMAT='%R %U %S' t
  t=$( { time "$@" > /dev/null 2>&1; } 2>&1 )
  awk '{ printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000 }' <<< "$t"
}

median() {
  sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'
}

without=(); empty=(); with=()
for ((i = 0; i < runs; i++)); do
  # Interleaved, so that load changes on the host affect all series alike.
  without+=("$(run_ms "$java" -cp "$work/classes" Hello)")
  empty+=("$(run_ms "$java" "-javaagent:$work/empty.jar" -cp "$work/classes" Hello)")
  with+=("$(run_ms "$java" "-javaagent:$jar=out=$work/trace-$i" -cp "$work/classes" Hello)")
done
# column 1 = wall, 2 = CPU
med() { printf '%s\n' "$@" | cut -d' ' -f"$col" | median; }
echo "java: $("$java" -version 2>&1 | head -1)"
echo "runs: $runs, load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
for col in 1 2; do
  what=$([[ $col == 1 ]] && echo "wall" || echo "CPU ")
  m0=$(med "${without[@]}"); me=$(med "${empty[@]}"); m1=$(med "${with[@]}")
  echo "$what median: no agent ${m0} ms, empty agent ${me} ms, Weft agent ${m1} ms;" \
    "added by Weft $((m1 - m0)) ms (any agent $((me - m0)) ms)"
done
