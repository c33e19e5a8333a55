#!/usr/bin/env bash
# The uncontended lock pair's added cost in thread CPU time (dev.weft.bench.LockPairCpu), without and
# with the agent in alternating JVMs, with the host's load average beside: CPU time, unlike the JMH
# figure's wall-clock average, stays readable on a shared, loaded host.
#
#   benchmarks/lock-pair.sh [JVMS] [AGENT_JAR [AGENT_JAR_B]]
#
# JVMS (default 5) JVMs of each kind, each measuring 41 rounds of 200,000 pairs per construct; the
# figure is the median over all JVMs' medians, the range theirs; then the same of each JVM's fastest
# round. With AGENT_JAR_B (e.g. an older build) a third JVM per round runs with it, so that two agent
# builds are compared in one run at the same load. Needs the built jars (mvn -B -q package -DskipTests). Not part of CI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
jvms="${1:-5}"
agent="${2:-$root/agent/target/weft-agent.jar}"
agent_b="${3:-}"
bench="${WEFT_BENCH_JAR:-$root/benchmarks/target/benchmarks.jar}"
usage="usage: benchmarks/lock-pair.sh [JVMS] [AGENT_JAR [AGENT_JAR_B]]"
[[ "$jvms" =~ ^[1-9][0-9]*$ ]] || { echo "$usage" >&2; exit 2; }
for jar in "$agent" "$bench" ${agent_b:+"$agent_b"}; do
  [[ -f "$jar" ]] || { echo "lock-pair.sh: $jar missing; run mvn -B -q package -DskipTests" >&2; exit 2; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
traced() { # traced JAR OUTPUT
  rm -rf "$work/trace"
  java "-javaagent:$1=include=dev.weft.bench.*,out=$work/trace" -cp "$bench" \
    dev.weft.bench.LockPairCpu >> "$2"
}
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$jvms"); do
  java -cp "$bench" dev.weft.bench.LockPairCpu >> "$work/plain"
  traced "$agent" "$work/weft"
  [[ -z "$agent_b" ]] || traced "$agent_b" "$work/weft_b"
done
echo "load average at end:   $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/plain" "$work/weft" ${agent_b:+"$work/weft_b"} <<'PY'
import statistics, sys
def read(path):
    out = {}
    for line in open(path):
        name, median, lo, hi = line.split()
        out.setdefault(name, []).append((float(median), float(lo)))
    return out
runs = [read(p) for p in sys.argv[1:]]
heads = ["plain", "agent", "agent B"][: len(runs)]
# The host has slow phases of seconds (other tenants on the physical cores) in which the agent's
# path costs up to a third more; the median of each JVM's fastest round shows the quiet phase.
for title, k in (("median", 0), ("fastest round", 1)):
    print(f"{'ns/op, ' + title:<24}" + "".join(f"{h + ' (range)':>22}" for h in heads)
          + "".join(f"{'+' + h:>10}" for h in heads[1:]))
    for name in runs[0]:
        vs = [[v[k] for v in r[name]] for r in runs]
        ms = [statistics.median(v) for v in vs]
        cells = "".join(f"{f'{m:.1f} ({min(v):.1f}–{max(v):.1f})':>22}" for m, v in zip(ms, vs))
        print(f"{name:<24}{cells}" + "".join(f"{m - ms[0]:>10.1f}" for m in ms[1:]))
PY
