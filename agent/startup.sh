#!/usr/bin/env bash
# Measures the JVM start-up time the agent adds: median wall time of N runs of a Hello-world program
# without and with -javaagent (recording into a fresh directory each run).
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

without=(); with=()
for ((i = 0; i < runs; i++)); do
  # Interleaved, so that load changes on the host affect both series alike.
  without+=("$(run_ms "$java" -cp "$work/classes" Hello)")
  with+=("$(run_ms "$java" "-javaagent:$jar=out=$work/trace-$i" -cp "$work/classes" Hello)")
done
m0=$(printf '%s\n' "${without[@]}" | median)
m1=$(printf '%s\n' "${with[@]}" | median)
echo "java: $("$java" -version 2>&1 | head -1)"
echo "runs: $runs"
echo "median without agent: ${m0} ms"
echo "median with agent:    ${m1} ms"
echo "added by the agent:   $((m1 - m0)) ms"
