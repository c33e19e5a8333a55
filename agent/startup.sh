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

# Prints one run's wall time in milliseconds.
run_ms() {
  local start end
  start=$(date +%s%N)
  "$@" > /dev/null
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
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
m0=$(printf '%s\n' "${without[@]}" | median)
me=$(printf '%s\n' "${empty[@]}" | median)
m1=$(printf '%s\n' "${with[@]}" | median)
echo "java: $("$java" -version 2>&1 | head -1)"
echo "runs: $runs, load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
echo "median without agent:     ${m0} ms"
echo "median with empty agent:  ${me} ms"
echo "median with Weft agent:   ${m1} ms"
echo "added by the Weft agent:  $((m1 - m0)) ms (of which any agent: $((me - m0)) ms)"
