#!/usr/bin/env bash
# The uncontended lock pair's added cost in thread CPU time (dev.weft.bench.LockPairCpu), without and
# with the agent in alternating JVMs, with the host's load average beside: CPU time, unlike the JMH
# figure's wall-clock average, stays readable on a shared, loaded host.
#
#   benchmarks/lock-pair.sh [JVMS] [AGENT_JAR]
#
# JVMS (default 5) JVMs of each kind, each measuring 41 rounds of 200,000 pairs per construct; the
# figure is the median over all JVMs' medians, the range theirs. Needs the built jars (mvn -B -q
# package -DskipTests). Not part of CI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
jvms="${1:-5}"
agent="${2:-$root/agent/target/weft-agent.jar}"
bench="${WEFT_BENCH_JAR:-$root/benchmarks/target/benchmarks.jar}"
[[ "$jvms" =~ ^[1-9][0-9]*$ ]] || { echo "usage: benchmarks/lock-pair.sh [JVMS] [AGENT_JAR]" >&2; exit 2; }
for jar in "$agent" "$bench"; do
  [[ -f "$jar" ]] || { echo "lock-pair.sh: $jar missing; run mvn -B -q package -DskipTests" >&2; exit 2; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$jvms"); do
  java -cp "$bench" dev.weft.bench.LockPairCpu >> "$work/plain"
  rm -rf "$work/trace"
  java "-javaagent:$agent=include=dev.weft.bench.*,out=$work/trace" -cp "$bench" \
    dev.weft.bench.LockPairCpu >> "$work/weft"
done
echo "load average at end:   $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/plain" "$work/weft" <<'PY'
import statistics, sys
def read(path):
    out = {}
    for line in open(path):
        name, median, lo, hi = line.split()
        out.setdefault(name, []).append(float(median))
    return out
plain, weft = read(sys.argv[1]), read(sys.argv[2])
print(f"{'thread CPU ns/op':<20} {'plain':>20} {'agent':>20} {'added':>8}")
for name in plain:
    p, w = plain[name], weft[name]
    pm, wm = statistics.median(p), statistics.median(w)
    print(f"{name:<20} {pm:>8.1f} ({min(p):.1f}–{max(p):.1f}) {wm:>8.1f} ({min(w):.1f}–{max(w):.1f}) "
          f"{wm - pm:>8.1f}")
PY
