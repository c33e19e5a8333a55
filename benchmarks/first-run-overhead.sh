#!/usr/bin/env bash
# What the agent costs on the first run of a coarse-grained test app in a fresh JVM, and where that
# CPU goes: whole-process CPU (user+sys) and wall, the scenario's own CPU and wall, and the CPU of
# the JIT compiler threads, the GC threads, the agent's threads and the rest, each read from
# /proc/self/task/*/stat just before the JVM exits.
#
#   benchmarks/first-run-overhead.sh [ROUNDS] [AGENT_OPTIONS]
#
# ROUNDS (default 7) rounds, each running sparse-cg and barrier-imbalance once without and once
# with the agent (options AGENT_OPTIONS, e.g. "families=locks"), in turn: every ratio is measured in
# one run, and the host's load average is printed beside it (the machine may be shared). Uses the
# built jars (agent/target/weft-agent.jar, testapps/target/weft-testapps.jar); build them first with
# `mvn -B -q package -DskipTests`. WEFT_JVM_OPTIONS adds JVM options to the agent's runs (e.g. to
# try a compiler setting); WEFT_AGENT=path/to/weft-agent.jar measures another agent jar than the
# built one, WEFT_AGENT_B=path/to/other/weft-agent.jar adds a third configuration in
# the same rounds, to compare two builds of the agent (WEFT_JVM_OPTIONS_B, if set, replaces
# WEFT_JVM_OPTIONS for that configuration, to compare JVM settings with one build). Linux only
# (/proc). Not part of CI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
rounds="${1:-7}"
agent_options="${2:-}"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "usage: benchmarks/first-run-overhead.sh [ROUNDS] [AGENT_OPTIONS]" >&2; exit 2; }
agent="${WEFT_AGENT:-$root/agent/target/weft-agent.jar}"
apps="$root/testapps/target/weft-testapps.jar"
bench="${WEFT_BENCH_JAR:-$root/benchmarks/target/benchmarks.jar}"
for jar in "$agent" "$apps" "$bench"; do
  [[ -f "$jar" ]] || { echo "first-run-overhead.sh: $jar missing; run mvn -B -q package -DskipTests" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "first-run-overhead.sh: GNU time (/usr/bin/time) is needed" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/classes"
cat > "$work/FirstRun.java" <<'JAVA'
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Map;

/** Runs one test-app scenario once, then prints its CPU and wall time and the CPU per thread kind. */
public final class FirstRun {
  public static void main(String[] args) throws Exception {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    int code = dev.weft.testapps.Main.run(
        args, new PrintStream(OutputStream.nullOutputStream()), System.err);
    long wall = System.nanoTime() - t0;
    long cpu = os.getProcessCpuTime() - cpu0;
    System.out.println("run " + wall + " " + cpu + " " + code);
    Map<String, Long> kinds = dev.weft.bench.ThreadCpu.byKind(FirstRun::kind);
    long live = 0;
    for (long ns : kinds.values()) {
      live += ns;
    }
    // Threads that ended before this point (the scenario's workers) are no longer listed.
    kinds.put("ended", Math.max(0, os.getProcessCpuTime() - live));
    kinds.forEach((k, ns) -> System.out.println("thread " + k + " " + ns));
  }

  private static String kind(String name) {
    if (dev.weft.bench.ThreadCpu.isJit(name)) {
      return "jit";
    }
    if (name.startsWith("GC ") || name.startsWith("G1 ") || name.startsWith("VM Thread")) {
      return "gc+vm";
    }
    if (name.startsWith("weft")) {
      return "agent";
    }
    if (name.equals("java") || name.equals("main")) {
      return "main";
    }
    return name.startsWith("pool-") || name.startsWith("ForkJoin") || name.contains("worker")
        ? "workers" : "other";
  }
}
JAVA
javac --release 17 -cp "$apps:$bench" -d "$work/classes" "$work/FirstRun.java"
export WORK="$work" AGENT="$agent" AGENT_B="${WEFT_AGENT_B:-}" CP="$work/classes:$apps:$bench" ROUNDS="$rounds" AGENT_OPTIONS="$agent_options"
exec python3 - <<'PY'
import os, statistics, subprocess, sys
work, rounds = os.environ["WORK"], int(os.environ["ROUNDS"])
opts = os.environ["AGENT_OPTIONS"]
apps = {"sparse-cg": ["sparse-cg", "--cpu", "--rows", "100000", "--iterations", "200"],
        "barrier-imbalance": ["barrier-imbalance", "--cpu", "--work-ms", "20", "--iterations", "25"]}
configs = ("plain", "weft") + (("weft B",) if os.environ["AGENT_B"] else ())
jars = {"weft": os.environ["AGENT"], "weft B": os.environ["AGENT_B"]}
data = {}  # (app, config) -> list of dicts

def load():
    return open("/proc/loadavg").read().split()[:3]

def run(app, config):
    out = os.path.join(work, "trace")
    subprocess.run(["rm", "-rf", out])
    jvm = []
    if config != "plain":
        jvm = [f"-javaagent:{jars[config]}=out={out}" + (f",{opts}" if opts else "")]
        options = os.environ.get("WEFT_JVM_OPTIONS", "")
        if config == "weft B":
            options = os.environ.get("WEFT_JVM_OPTIONS_B", options)
        jvm += options.split()
    p = subprocess.run(["/usr/bin/time", "-f", "time %U %S %e", "java", *jvm, "-cp", os.environ["CP"],
                        "FirstRun", *apps[app]], capture_output=True, text=True)
    r = {}
    for line in (p.stdout + p.stderr).splitlines():
        f = line.split()
        if f[:1] == ["run"]:
            if f[3] != "0":
                raise SystemExit(f"{app} [{config}] exited {f[3]}")
            r["run wall"], r["run cpu"] = int(f[1]) / 1e9, int(f[2]) / 1e9
        elif f[:1] == ["thread"]:
            r[f"cpu {f[1]}"] = int(f[2]) / 1e9
        elif f[:1] == ["time"]:
            r["process cpu"], r["process wall"] = float(f[1]) + float(f[2]), float(f[3])
    if "run cpu" not in r or "process cpu" not in r:
        raise SystemExit(f"{app} [{config}]: no figures\n{p.stderr[-2000:]}")
    return r

print(f"load average at start: {' '.join(load())}; agent options: {opts or '(defaults)'}")
for i in range(rounds):
    print(f"round {i + 1}/{rounds}, load {' '.join(load())}", file=sys.stderr)
    for app in apps:
        for c in (configs if i % 2 == 0 else tuple(reversed(configs))):
            data.setdefault((app, c), []).append(run(app, c))
print(f"load average at end:   {' '.join(load())}; {rounds} rounds, medians (min–max), seconds")
for app in apps:
    print(f"\n{app} ({' '.join(apps[app][1:])}), first run in a fresh JVM")
    keys = sorted({k for c in configs for d in data[(app, c)] for k in d},
                  key=lambda k: (not k.startswith("process"), not k.startswith("run"), k))
    print(f"  {'figure':<16}" + "".join(f" {c:>20}" for c in configs)
          + "".join(f" {c + '/plain':>13}" for c in configs[1:]))
    for k in keys:
        cols = []
        meds = []
        for c in configs:
            v = [d.get(k, 0.0) for d in data[(app, c)]]
            meds.append(statistics.median(v))
            cols.append(f"{meds[-1]:.3f} ({min(v):.2f}–{max(v):.2f})")
        ratios = [f"{m / meds[0]:.2f}×" if meds[0] > 0 else "–" for m in meds[1:]]
        print(f"  {k:<16}" + "".join(f" {c:>20}" for c in cols) + "".join(f" {r:>13}" for r in ratios))
PY
