#!/usr/bin/env bash
# What the agent costs per class it looks at, without any program running: every class of two
# third-party jars from Maven Central (lucene-core 9.12.3, h2 2.3.232; about 3,500 classes, many
# with monitors) is loaded, not initialised, in a fresh JVM, plain, with the agent, and with JFR
# `profile`, in turn. Printed per configuration, median and range over the rounds: CPU of the
# loading thread (where the agent reads and weaves each class), of the JIT compiler threads, and of
# the whole process while loading, each read from /proc/self/task/*/stat or the thread's own clock.
#
#   benchmarks/weave-cost.sh [ROUNDS]
#
# ROUNDS defaults to 7. WEFT_AGENT=path/to/weft-agent.jar measures another agent jar than the built
# one; WEFT_AGENT_B=path/to/other/weft-agent.jar adds it as a fourth configuration in the same
# rounds, to compare two builds. WEFT_JVM_OPTIONS adds JVM options to the agent's runs;
# WEFT_JVM_OPTIONS_B, if set, replaces them for the second agent (to compare JVM settings with one
# build). The jars are fetched with Maven (benchmarks/thirdparty/pom.xml).
# Linux only (/proc). Not part of CI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
rounds="${1:-7}"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "usage: benchmarks/weave-cost.sh [ROUNDS]" >&2; exit 2; }
agent="${WEFT_AGENT:-$root/agent/target/weft-agent.jar}"
[[ -f "$agent" ]] || { echo "weave-cost.sh: $agent missing; run mvn -B -q package -DskipTests" >&2; exit 2; }
tp="$here/thirdparty"
lib="$tp/target/lib"
if ! ls "$lib"/lucene-core-*.jar "$lib"/h2-*.jar > /dev/null 2>&1; then
  echo "fetching the third-party jars (mvn dependency:copy-dependencies)..." >&2
  (cd "$tp" && mvn -B -q dependency:copy-dependencies -DoutputDirectory=target/lib)
fi
bench="${WEFT_BENCH_JAR:-$root/benchmarks/target/benchmarks.jar}"
[[ -f "$bench" ]] || { echo "weave-cost.sh: $bench missing; run mvn -B -q package -DskipTests" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export WORK="$work" BENCH="$bench" AGENT="$agent" AGENT_B="${WEFT_AGENT_B:-}" ROUNDS="$rounds"
export JARS="$(ls "$lib"/lucene-core-*.jar "$lib"/h2-*.jar | tr '\n' ' ')"
exec python3 - <<'PY'
import os, statistics, subprocess, sys
work, rounds, jars = os.environ["WORK"], int(os.environ["ROUNDS"]), os.environ["JARS"].split()
configs = ["plain", "weft"] + (["weft B"] if os.environ["AGENT_B"] else []) + ["jfr"]
data = {c: [] for c in configs}

def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])

def run(config):
    out = os.path.join(work, "out")
    subprocess.run(["rm", "-rf", out])
    jvm = {"plain": [], "jfr": [f"-XX:StartFlightRecording=settings=profile,filename={out}.jfr"],
           "weft": [f"-javaagent:{os.environ['AGENT']}=out={out}"],
           "weft B": [f"-javaagent:{os.environ['AGENT_B']}=out={out}"]}[config]
    if config.startswith("weft"):
        options = os.environ.get("WEFT_JVM_OPTIONS", "")
        if config == "weft B":
            options = os.environ.get("WEFT_JVM_OPTIONS_B", options)
        jvm += options.split()
    p = subprocess.run(["java", *jvm, "-cp", os.environ["BENCH"], "dev.weft.bench.LoadClasses", *jars],
                       capture_output=True, text=True)
    r = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] in ("classes", "loading", "jit", "process"):
            r[f[0]] = int(f[1])
    if p.returncode != 0 or "process" not in r:
        raise SystemExit(f"[{config}] failed:\n{p.stderr[-2000:]}")
    return r

print(f"load average at start: {load()}")
for i in range(rounds):
    print(f"round {i + 1}/{rounds}, load {load()}", file=sys.stderr)
    for c in (configs if i % 2 == 0 else list(reversed(configs))):
        data[c].append(run(c))
print(f"load average at end:   {load()}")
classes = data["plain"][0]["classes"]
print(f"{classes} classes loaded, {rounds} rounds; CPU ms, median (range); added: median of the "
      "rounds' differences to plain")
print(f"{'':8}{'loading thread':>24}{'JIT threads':>24}{'process':>24}{'added process, us/class':>26}")
for c in configs:
    row = f"{c:8}"
    for k in ("loading", "jit", "process"):
        v = [r[k] / 1e6 for r in data[c]]
        row += f"{statistics.median(v):>10.0f} ({min(v):.0f}-{max(v):.0f})".rjust(24)
    added = [(r["process"] - p["process"]) / 1e3 / classes for r, p in zip(data[c], data["plain"])]
    row += f"{statistics.median(added):>26.0f}"
    print(row)
PY
