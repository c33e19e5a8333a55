#!/usr/bin/env python3
"""Runs Weft's benchmark figures and writes BENCHMARKS.md (called by benchmarks/run.sh, which builds
the jars first). Every figure is measured in this run: comparisons (with/without the agent, Weft
against JFR) come from runs interleaved in time, so that the load of a shared host hits all alike.
Medians are reported with their spread (min-max over runs, or JMH's iterations)."""

import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# WEFT_AGENT_JAR: measure another build of the agent (e.g. one with more construct families).
AGENT = os.environ.get("WEFT_AGENT_JAR", os.path.join(ROOT, "agent/target/weft-agent.jar"))
# WEFT_AGENT_B_JAR: figure 4 also measures this second build, in the same rounds (before/after).
AGENT_B = os.environ.get("WEFT_AGENT_B_JAR")
CLI = os.path.join(ROOT, "analyzer-cli/cli/target/weft.jar")
APPS = os.path.join(ROOT, "testapps/target/weft-testapps.jar")
BENCH = os.path.join(ROOT, "benchmarks/target/benchmarks.jar")
JAVA = os.environ.get("JAVA", "java")

FULL = "--full" in sys.argv[1:]
MODE = "full" if FULL else "quick"
# JMH iterations: quick keeps each benchmark to about 5 s.
JMH = ["-f", "3", "-wi", "5", "-w", "1s", "-i", "10", "-r", "1s"] if FULL else \
      ["-f", "1", "-wi", "2", "-w", "1s", "-i", "3", "-r", "1s"]
APP_ROUNDS = 11 if FULL else 5
STARTUP_RUNS = 31 if FULL else 11
ANALYZER_SIZES = [10_000_000, 100_000_000] if FULL else [10_000_000]
ATTACH_ROUNDS = 15 if FULL else 5

WORK = tempfile.mkdtemp(prefix="weft-bench.")
CLOCK = []  # System.nanoTime() cost in this run (figure 1), to express other costs in its units
rows = []  # (figure, what, measured, goal, verdict)
notes = []  # free text per figure for BENCHMARKS.md


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def row(fig, what, measured, goal="", verdict=""):
    rows.append((fig, what, measured, goal, verdict))
    log(f"  [{fig}] {what}: {measured} {goal} {verdict}")


def met(ok):
    return "met" if ok else "MISSED"


def fresh(name):
    path = os.path.join(WORK, name)
    shutil.rmtree(path, ignore_errors=True)
    return path


def run_timed(cmd, cwd=None):
    """Runs cmd; returns (wall seconds, stdout, stderr); raises if it fails."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.communicate()
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {err.strip()[-400:]}")
    return wall, out, err


def agent_has(cls):
    with zipfile.ZipFile(AGENT) as z:
        return f"dev/weft/agent/constructs/{cls}.class" in z.namelist()


def spread(values, fmt="{:.1f}"):
    return f"{fmt.format(statistics.median(values))} ({fmt.format(min(values))}–{fmt.format(max(values))})"


# ---------------------------------------------------------------- JMH: figures 1-3


def jmh(regex, agent_opts, tag):
    """Runs the JMH benchmarks matching regex, with the agent (options string) or without (None).
    Returns {method: [iteration scores]}; traces go to a scratch directory deleted afterwards."""
    cwd = fresh("jmh-" + tag)
    os.makedirs(cwd)
    result = os.path.join(cwd, "result.json")
    jvm = "-Djmh.blackhole.mode=COMPILER"
    if agent_opts is not None:
        opts = "include=dev.weft.bench.*" + ("," + agent_opts if agent_opts else "")
        jvm += f" -javaagent:{AGENT}={opts}"
    cmd = [JAVA, "-jar", BENCH, regex, *JMH, "-rf", "json", "-rff", result, "-jvmArgsAppend", jvm]
    log(f"JMH {regex} [{tag}]")
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(result):
        tail = " / ".join((p.stdout + p.stderr).strip().splitlines()[-3:])
        raise RuntimeError(f"JMH {regex} [{tag}] exited {p.returncode}: {tail}")
    with open(result) as f:
        data = json.load(f)
    shutil.rmtree(cwd, ignore_errors=True)
    out = {}
    for b in data:
        name = b["benchmark"].rsplit(".", 1)[1]
        out[name] = [v for fork in b["primaryMetric"]["rawData"] for v in fork]
    return out


def added(with_agent, without, per=1.0):
    """Added cost: difference of medians, and the widest/narrowest difference of the ranges."""
    d = (statistics.median(with_agent) - statistics.median(without)) / per
    lo = (min(with_agent) - max(without)) / per
    hi = (max(with_agent) - min(without)) / per
    return d, lo, hi


def figure_hot_path():
    none = jmh("HotPathBenchmark", None, "hot-none")
    weft = jmh("HotPathBenchmark", "", "hot-weft")
    clock = none["nanoTime"]
    CLOCK.extend(clock)
    row(1, "System.nanoTime() (floor), ns", spread(clock))
    for m, label in (("region", "Weft.region enter+exit"), ("traced", "@Traced enter+exit")):
        d, lo, hi = added(weft[m], none[m], per=2)
        row(1, f"{label}: ns/op without → with agent",
            f"{statistics.median(none[m]):.1f} → {statistics.median(weft[m]):.1f}")
        row(1, f"{label}: added ns per event (2 events/op)",
            f"{d:.1f} ({lo:.1f}–{hi:.1f}); {d / statistics.median(clock):.2f}× nanoTime",
            "≤ 30 ns", met(d <= 30))
    notes.append((1, "JMH `HotPathBenchmark` (AverageTime) in two forks configurations: without "
                     "the agent and with `-javaagent:weft-agent.jar=include=dev.weft.bench.*`. "
                     "Added per event = (median with − median without) / 2; range from the "
                     "iterations' extremes. The nanoTime() row is the same run's clock cost."))


def figure_locks():
    if not agent_has("ReentrantLocks"):
        row(2, "uncontended lock+unlock", "not measured: lock weaving not on main", "≤ 90 ns/pair")
        return
    none = jmh("LockBenchmark", None, "lock-none")
    weft = jmh("LockBenchmark", "", "lock-weft")
    for m, label in (("reentrantLock", "ReentrantLock"), ("synchronizedBlock", "synchronized")):
        d, lo, hi = added(weft[m], none[m])
        row(2, f"{label} lock+unlock: ns/op without → with agent",
            f"{statistics.median(none[m]):.1f} → {statistics.median(weft[m]):.1f}")
        row(2, f"{label}: added ns per pair (3 events)", f"{d:.1f} ({lo:.1f}–{hi:.1f})",
            "≤ 90 ns", met(d <= 90))


def figure_forkjoin():
    if not agent_has("ForkJoinTasks"):
        row(3, "fine-grained fork-join / parallel stream",
            "not measured: fork-join weaving not on main", "aggregate ≤ 1.5×")
        return
    none = jmh("ForkJoinBenchmark", None, "fj-none")
    full = jmh("ForkJoinBenchmark", "", "fj-all")
    agg = jmh("ForkJoinBenchmark", "tasks=aggregate", "fj-aggregate")
    for m, label in (("fib", "fib(20), threshold 2, 2 workers"),
                     ("parallelStream", "parallel stream, 100k boxed ints")):
        base = statistics.median(none[m])
        row(3, f"{label}: µs/op untraced", spread(none[m]))
        row(3, f"{label}: traced/untraced, tasks=all",
            f"{statistics.median(full[m]) / base:.2f}× "
            f"({min(full[m]) / max(none[m]):.2f}–{max(full[m]) / min(none[m]):.2f})")
        r = statistics.median(agg[m]) / base
        row(3, f"{label}: traced/untraced, tasks=aggregate",
            f"{r:.2f}× ({min(agg[m]) / max(none[m]):.2f}–{max(agg[m]) / min(none[m]):.2f})",
            "≤ 1.5×", met(r <= 1.5))


# ------------------------------------------ figure 4: apps under Weft, JFR and async-profiler

TIMED_RUN = """
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;

/**
 * Runs one test-app scenario several times in this JVM (the system property runs) and prints, for
 * each run, its wall and process CPU time: the first run pays the one-time costs (class loading,
 * weaving, JIT compilation of the code that weaves and records), the last ones are the steady state.
 */
public final class TimedRun {
  public static void main(String[] args) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (int run = 1, runs = Integer.getInteger("runs"); run <= runs; run++) {
      long cpu0 = os.getProcessCpuTime();
      long t0 = System.nanoTime();
      int code = dev.weft.testapps.Main.run(
          args, new PrintStream(OutputStream.nullOutputStream()), System.err);
      long wall = System.nanoTime() - t0;
      long cpu = os.getProcessCpuTime() - cpu0;
      System.out.println("timed " + run + " " + wall + " " + cpu + " " + code);
      if (code != 0) {
        return;
      }
    }
  }
}
"""


def compile_timed_run():
    src = os.path.join(WORK, "timed/TimedRun.java")
    os.makedirs(os.path.dirname(src), exist_ok=True)
    with open(src, "w") as f:
        f.write(TIMED_RUN)
    subprocess.run(["javac", "--release", "17", "-cp", APPS, "-d", os.path.dirname(src), src],
                   check=True)
    return os.path.dirname(src) + os.pathsep + APPS


AP_VERSION = "4.2"  # tools.profiler:async-profiler on Maven Central ships the native library


def async_profiler():
    """The async-profiler agent library, fetched from Maven Central into this run's work dir."""
    lib = os.path.join(WORK, "ap", "libasyncProfiler.so")
    if os.path.exists(lib):
        return lib
    arch = {"x86_64": "linux-x64", "aarch64": "linux-arm64"}.get(platform.machine())
    if arch is None or platform.system() != "Linux":
        raise RuntimeError(f"no async-profiler library for {platform.system()} {platform.machine()}")
    out = os.path.dirname(lib)
    subprocess.run(["mvn", "-B", "-q", "dependency:copy",
                    f"-Dartifact=tools.profiler:async-profiler:{AP_VERSION}",
                    f"-DoutputDirectory={out}"], check=True, cwd=HERE)
    with zipfile.ZipFile(os.path.join(out, f"async-profiler-{AP_VERSION}.jar")) as z:
        with open(lib, "wb") as f:
            f.write(z.read(f"{arch}/libasyncProfiler.so"))
    return lib


# The tools compared in figure 4, with the JVM options that turn each on (OUT: its output file).
PROFILERS = {
    "weft": ("Weft", lambda out: [f"-javaagent:{AGENT}=out={out}"]),
    **({"weft-b": (f"Weft build {AGENT_B}", lambda out: [f"-javaagent:{AGENT_B}=out={out}"])}
       if AGENT_B else {}),
    "jfr": ("JFR profile", lambda out: [f"-XX:StartFlightRecording:settings=profile,filename={out}.jfr"]),
    "ap": ("async-profiler lock (threshold 0)",
           lambda out: [f"-agentpath:{async_profiler()}=start,event=lock,lock=0,collapsed,"
                        f"file={out}.collapsed"]),
}


# Runs of a scenario per JVM in figure 4: the first is the first run, the median of the last three
# of each JVM is its steady state. The third run was not steady yet (2026-11-27, sparse-cg, 5 JVMs
# of 8 runs each: CPU +19 % with Weft and +16 % with JFR at the third run, +1 % and -6 % at runs
# 6-8, against plain), so figure 4 read the JIT's late compilations as steady overhead.
APP_RUNS = 8
STEADY_RUNS = range(APP_RUNS - 2, APP_RUNS + 1)

# An app's run shorter than this (untraced, CPU or wall) is not measured for overhead: the process
# CPU time it is timed with moves in steps of 10 ms.
MEASURABLE_S = 0.02


def figure_apps():
    cp = compile_timed_run()
    # The two coarse-grained apps the goal is about, at a size where a run takes about a second;
    # in --full also every other test app at its defaults (its own, small, ground-truth size).
    if FULL:
        apps = {"sparse-cg": ["sparse-cg", "--cpu", "--rows", "100000", "--iterations", "200"],
                "barrier-imbalance": ["barrier-imbalance", "--cpu", "--work-ms", "20",
                                      "--iterations", "25"]}
        for name in scenarios():
            apps.setdefault(name, [name])
    else:
        apps = {"sparse-cg": ["sparse-cg", "--cpu", "--rows", "50000", "--iterations", "100"],
                "barrier-imbalance": ["barrier-imbalance", "--cpu", "--work-ms", "10",
                                      "--iterations", "20"]}
    configs = ["none", *PROFILERS]
    runs = (1, "steady")
    wall = {(a, c, r): [] for a in apps for c in configs for r in runs}
    cpu = {(a, c, r): [] for a in apps for c in configs for r in runs}
    for i in range(APP_ROUNDS):
        log(f"apps round {i + 1}/{APP_ROUNDS}")
        for app, args in apps.items():
            for c in configs:
                out_dir = fresh("app-trace")
                jvm = PROFILERS[c][1](out_dir) if c in PROFILERS else []
                _, out, _ = run_timed([JAVA, *jvm, f"-Druns={APP_RUNS}", "-cp", cp, "TimedRun",
                                       *args])
                lines = [l.split() for l in out.splitlines() if l.startswith("timed ")]
                for line in lines:
                    if line[4] != "0":
                        raise RuntimeError(f"{app} [{c}] exited {line[4]}")
                if len(lines) != APP_RUNS:
                    raise RuntimeError(f"{app} [{c}]: {len(lines)} timed runs, not {APP_RUNS}")
                wall[(app, c, 1)].append(int(lines[0][2]) / 1e9)
                cpu[(app, c, 1)].append(int(lines[0][3]) / 1e9)
                steady = [line for line in lines if int(line[1]) in STEADY_RUNS]
                wall[(app, c, "steady")].append(statistics.median(int(l[2]) / 1e9 for l in steady))
                cpu[(app, c, "steady")].append(statistics.median(int(l[3]) / 1e9 for l in steady))
                shutil.rmtree(out_dir, ignore_errors=True)
                for ext in (".jfr", ".collapsed"):
                    if os.path.exists(out_dir + ext):
                        os.remove(out_dir + ext)

    def overhead(series, app, c, r):
        ratios = [w / n for w, n in zip(series[(app, c, r)], series[(app, "none", r)])]
        o = (statistics.median(series[(app, c, r)]) / statistics.median(series[(app, "none", r)])
             - 1)
        return o * 100, f"{o * 100:+.1f} % ({min(ratios) * 100 - 100:+.0f}…" \
                        f"{max(ratios) * 100 - 100:+.0f} %)"

    for app in apps:
        for r, which in ((1, "first run in the JVM"),
                         ("steady", f"runs {STEADY_RUNS[0]}-{STEADY_RUNS[-1]} (steady state)")):
            row(4, f"{app} ({' '.join(apps[app][1:])}), {which}, untraced: CPU s; wall s",
                f"{spread(cpu[(app, 'none', r)], '{:.2f}')}; "
                f"{spread(wall[(app, 'none', r)], '{:.2f}')}")
            if min(cpu[(app, "none", r)]) < MEASURABLE_S or min(wall[(app, "none", r)]) < MEASURABLE_S:
                row(4, f"{app}, {which}: overheads", "not measured: a run this short is below "
                    f"the timer's resolution ({MEASURABLE_S * 1000:.0f} ms); start-up is figure 5")
                continue
            over = {}
            for c, (label, _) in PROFILERS.items():
                over[c], text = overhead(cpu, app, c, r)
                _, wtext = overhead(wall, app, c, r)
                row(4, f"{app}, {which}: CPU overhead with {label} (wall in brackets)",
                    f"{text} [wall {wtext}]", "≤ 3 %" if c == "weft" else "")
            if app not in ("sparse-cg", "barrier-imbalance"):
                continue  # the goal is about coarse-grained apps; the others are for comparison
            ok = over["weft"] <= 3 and over["weft"] <= max(over["jfr"], 0)
            row(4, f"{app}, {which}: Weft ≤ 3 % and ≤ JFR (CPU)",
                f"Weft {over['weft']:+.1f} % vs JFR {over['jfr']:+.1f} %", "≤ 3 %, ≤ JFR",
                met(ok))
    notes.append((4, f"{APP_ROUNDS} rounds, each running every app without tracing, with the "
                     "Weft agent (all construct families), with JFR "
                     "`-XX:StartFlightRecording:settings=profile` and with async-profiler "
                     f"{AP_VERSION} (`event=lock,lock=0`: every contended lock, from Maven "
                     "Central's `tools.profiler:async-profiler`), in turn; `--full` adds every "
                     "other test app at its default size. Measured inside the JVM "
                     "around the scenario (start-up and JFR's dump at exit excluded; start-up is "
                     "figure 5): the process's CPU time (all threads, the recorder's and JFR's "
                     "included) and the wall time. On a shared host the wall time mostly measures "
                     "the other tenants, so the verdict uses CPU time. Overhead = ratio of "
                     "medians − 1; the per-round range shows the noise. Each JVM runs the "
                     f"scenario {APP_RUNS} times: the first run carries the one-time costs "
                     "(weaving the classes the scenario loads, and JIT-compiling the weaving code "
                     "and the larger woven methods: `-XX:+CITime` shows total compilation time "
                     "going from 0.44 s to 1.25 s for sparse-cg); the median of each JVM's runs "
                     f"{STEADY_RUNS[0]}-{STEADY_RUNS[-1]} is the steady state that a long-running "
                     "program sees (the third run, used before, was still compiling: sparse-cg "
                     "read +19 % with Weft and +16 % with JFR there, +1 % and −6 % at runs 6–8)."))


# ---------------------------------------------------------------- figure 5: start-up


def figure_startup():
    d = os.path.join(WORK, "hello")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "Hello.java"), "w") as f:
        f.write('public class Hello { public static void main(String[] a) '
                '{ System.out.println("Hello, world"); } }\n')
    subprocess.run(["javac", "--release", "17", "-d", d, os.path.join(d, "Hello.java")], check=True)
    series = {"none": [], "weft": [], "jfr": []}
    log(f"start-up: {STARTUP_RUNS} runs of each")
    for i in range(STARTUP_RUNS):
        for c in series:
            out_dir = fresh("startup-trace")
            jvm = {"none": [], "weft": [f"-javaagent:{AGENT}=out={out_dir}"],
                   "jfr": [f"-XX:StartFlightRecording:settings=profile,filename={out_dir}.jfr"]}[c]
            wall, _, _ = run_timed([JAVA, *jvm, "-cp", d, "Hello"])
            series[c].append(wall * 1000)
            shutil.rmtree(out_dir, ignore_errors=True)
            if os.path.exists(out_dir + ".jfr"):
                os.remove(out_dir + ".jfr")
    base = statistics.median(series["none"])
    row(5, "Hello world without agent, ms (wall)", spread(series["none"], "{:.0f}"))
    for c, label in (("weft", "Weft agent"), ("jfr", "JFR profile")):
        add = statistics.median(series[c]) - base
        row(5, f"start-up added by {label}, ms", f"{add:.0f} (whole run "
            f"{spread(series[c], '{:.0f}')})", "≤ 300 ms" if c == "weft" else "",
            met(add <= 300) if c == "weft" else "")
    notes.append((5, f"{STARTUP_RUNS} runs of each configuration, interleaved; whole-process "
                     "wall time of a Hello-world JVM; added = difference of medians."))


# ---------------------------------------------------------------- figure 6: bytes per event


def scenarios():
    out = subprocess.run([JAVA, "-jar", APPS, "--help"], capture_output=True, text=True).stdout
    return [m.group(1) for m in re.finditer(r"^([a-z][a-z0-9-]*) - ", out, re.M)]


def figure_bytes():
    tot_events = tot_bytes = tot_file = 0
    empty = []
    # Each scenario with its defaults (small traces, where fixed costs show), and one long run.
    runs = [[s] for s in scenarios()]
    runs.append(["regions", "--threads", "2", "--outer", "200000", "--inner", "4"])
    for args in runs:
        s = " ".join(args)
        out_dir = fresh("bytes-trace")
        subprocess.run([JAVA, f"-javaagent:{AGENT}=out={out_dir}", "-jar", APPS, *args],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        summ = json.loads(subprocess.run([JAVA, "-jar", CLI, "summary", out_dir, "--format",
                                          "json"], check=True, capture_output=True,
                                         text=True).stdout)
        events = summ["total_events"]
        file_bytes = sum(os.path.getsize(os.path.join(dp, f))
                         for dp, _, fs in os.walk(out_dir) for f in fs)
        shutil.rmtree(out_dir, ignore_errors=True)
        if events == 0:
            empty.append(s)
            continue
        tot_events += events
        tot_bytes += summ["event_bytes"]
        tot_file += file_bytes
        row(6, f"{s}: bytes/event encoded; file bytes/event ({events:,} events)",
            f"{summ['bytes_per_event']:.2f}; {file_bytes / events:.1f}")
    if empty:
        row(6, "scenarios recording no events (constructs not woven by this agent)",
            ", ".join(empty))
    if tot_events == 0:
        row(6, "bytes/event", "not measured: no scenario recorded events", "≤ 6")
        return
    enc = tot_bytes / tot_events
    row(6, "all runs together: encoded bytes/event; file bytes/event",
        f"{enc:.2f}; {tot_file / tot_events:.1f}", "≤ 6", met(enc <= 6))
    notes.append((6, "Each test-app scenario with its default options under the agent. Encoded "
                     "= event bytes in the streams (`weft summary --format json`); file bytes = "
                     "every file in the trace directory (definitions, unused tails of the mapped "
                     "windows) divided by events: small runs are dominated by fixed costs. The "
                     "verdict is on all runs' encoded bytes over all their events, which the long "
                     "`regions` run dominates; scenarios whose constructs this agent does not "
                     "weave record few or no events."))


# ---------------------------------------------------------------- figure 7: analyzer


def figure_analyzer():
    rss = {}
    for n in ANALYZER_SIZES:
        trace = fresh(f"synthetic-{n}")
        log(f"analyzer: synthetic trace of {n:,} events")
        subprocess.run([JAVA, "-cp", BENCH, "dev.weft.analysis.SyntheticTrace", "--out", trace,
                        "--events", str(n), "--threads", "8", "--mix",
                        "regions=4,locks=1,barriers=1,tasks=1"], check=True,
                       stdout=subprocess.DEVNULL)
        tfile = os.path.join(WORK, "time.txt")
        for threads, label in (("1", "one thread"), ("0", "automatic threads")):
            # The serial collector, as the weft launcher runs its analyses.
            out = subprocess.run(["/usr/bin/time", "-v", "-o", tfile, JAVA, "-Xmx1g",
                                  "-XX:+UseSerialGC", "-cp", BENCH,
                                  "dev.weft.bench.AnalysisBenchmark", "--threads", threads, trace],
                                 check=True, capture_output=True, text=True).stdout
            m = re.search(r"([\d.]+) M events/s wall, ([\d.]+) M events/s CPU", out)
            wall, cpu = float(m.group(1)), float(m.group(2))
            p = re.search(r"process CPU ([\d.]+) s", out)
            process = n / float(p.group(1)) / 1e6
            with open(tfile) as f:
                kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", f.read()).group(1))
            rss[(n, threads)] = kb / 1024
            row(7, f"analyzer, {n // 1_000_000} M events, {label}: M events/s of wall time "
                   f"(of the calling thread's CPU; of the process's CPU)",
                f"{wall:.1f} ({cpu:.1f}; {process:.1f})", "≥ 20 M/s per core",
                met(process >= 20))
            row(7, f"analyzer, {n // 1_000_000} M events, {label}: peak RSS (-Xmx1g)",
                f"{rss[(n, threads)]:.0f} MiB")
        shutil.rmtree(trace, ignore_errors=True)
    if len(ANALYZER_SIZES) > 1:
        a, b = rss[(ANALYZER_SIZES[0], "1")], rss[(ANALYZER_SIZES[-1], "1")]
        row(7, "peak RSS growth 10 M → 100 M events (one thread)", f"{(b / a - 1) * 100:+.0f} %",
            "flat", met(b <= a * 1.25))
    notes.append((7, "`dev.weft.analysis.SyntheticTrace` (8 threads, mix regions=4,locks=1,"
                     "barriers=1,tasks=1), analysed by `dev.weft.bench.AnalysisBenchmark` (serial collector, "
                     "as `./weft` runs analyses) under "
                     "`/usr/bin/time -v`, on one thread and with the automatic choice (on 2+ cores: "
                     "the trace read on one thread, the replay on the calling one, the critical "
                     "path on a third). Events/s of the process's CPU counts every thread, the "
                     "JIT compilers and the GC included: the per-core figure the goal is about. "
                     "The wall figure counts the host's load too."))


# ---------------------------------------------------------------- figure 8: attach


ATTACH_TARGET = """
import dev.weft.api.Region;
import dev.weft.api.Weft;
import java.util.concurrent.locks.ReentrantLock;

/** Enters a user region and takes a lock about every millisecond until stdin closes. */
public final class AttachTarget {
  private static final ReentrantLock LOCK = new ReentrantLock();
  private static volatile boolean stop;

  // Its own method: a loop that is running when the agent attaches keeps its old code.
  static long tick(long i) {
    try (Region r = Weft.region("tick")) {
      LOCK.lock();
      try {
        return 3 * i;
      } finally {
        LOCK.unlock();
      }
    }
  }

  public static void main(String[] args) throws Exception {
    Thread stdin = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // until closed
        }
      } catch (java.io.IOException e) {
        // closed
      }
      stop = true;
    }, "stdin");
    stdin.setDaemon(true);
    stdin.start();
    System.out.println("ready");
    System.out.flush();
    long n = 0;
    long sum = 0;
    while (!stop) {
      sum += tick(n++);
      Thread.sleep(1);
    }
    System.out.println("ticks " + n + " sum " + sum);
  }
}
"""

ATTACH_STEPS = ("main", "attach", "attached", "agentmain", "recording", "replied")


def compile_attach_target():
    src = os.path.join(WORK, "attach/AttachTarget.java")
    os.makedirs(os.path.dirname(src), exist_ok=True)
    with open(src, "w") as f:
        f.write(ATTACH_TARGET)
    subprocess.run(["javac", "--release", "17", "-cp", APPS, "-d", os.path.dirname(src), src],
                   check=True)
    return os.path.dirname(src) + os.pathsep + APPS


def start_attach_target(cp):
    p = subprocess.Popen([JAVA, "-cp", cp, "AttachTarget"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.stdout.readline().strip() != "ready":
        p.kill()
        raise RuntimeError(f"the attach target did not start: {p.stderr.read().strip()[-300:]}")
    time.sleep(0.5)  # past its own start-up, as a program a user attaches to
    return p


def stop_attach_target(p):
    out, err = p.communicate(timeout=60)
    if p.returncode != 0 or not out.startswith("ticks "):
        raise RuntimeError(f"the attach target failed (exit {p.returncode}): {err.strip()[-300:]}")


def attach_once(weft, pid, tag):
    """One `weft attach PID --duration 0` then `weft detach PID`; returns the attach's steps and
    the first recorded event as ms after the command was started, and the detach's wall ms."""
    trace = fresh(f"attach-{tag}")
    env = dict(os.environ, WEFT_HOME=ROOT)
    t0 = time.time_ns()
    p = subprocess.run([*weft, "attach", str(pid), "--duration", "0", "--out", trace, "--agent",
                        AGENT, "--timings"], capture_output=True, text=True, env=env)
    t_exit = time.time_ns()
    if p.returncode != 0:
        raise RuntimeError(f"weft attach exited {p.returncode}: {p.stderr.strip()[-300:]}")
    m = re.search(r"^weft: timings \(ms since the epoch\):(.*)$", p.stderr, re.M)
    if not m:
        raise RuntimeError(f"weft attach printed no timings: {p.stderr.strip()[-300:]}")
    steps = {k: float(v) - t0 / 1e6 for k, v in re.findall(r"(\w+)=([\d.]+)", m.group(1))}
    steps["exit"] = (t_exit - t0) / 1e6
    d0 = time.perf_counter()
    run_timed([*weft, "detach", str(pid), "--agent", AGENT])
    detach_ms = (time.perf_counter() - d0) * 1000
    summ = json.loads(subprocess.run([JAVA, "-jar", CLI, "summary", trace, "--format", "json"],
                                     check=True, capture_output=True, text=True).stdout)
    shutil.rmtree(trace, ignore_errors=True)
    if summ["total_events"] == 0:
        raise RuntimeError(f"weft attach ({tag}) recorded no events")
    steps["first"] = summ["start_epoch_ns"] / 1e6 - t0 / 1e6
    return steps, detach_ms


def figure_attach():
    p = subprocess.run([JAVA, "-jar", CLI, "--help"], capture_output=True, text=True)
    if not re.search(r"^\s+attach\s", p.stdout, re.M):
        row(8, "attach → first event", "not measured: `weft attach` not on main", "≤ 1 s")
        return
    cp = compile_attach_target()
    launcher = [os.path.join(ROOT, "weft")]
    configs = {"./weft": launcher, "java -jar weft.jar": [JAVA, "-jar", CLI]}
    # The launcher's first run prepares its class-data-sharing archive: not part of the figure.
    w0 = time.perf_counter()
    run_timed([*launcher, "--version"])
    prepare = time.perf_counter() - w0
    first = {c: [] for c in configs}
    again = {c: [] for c in configs}
    detach = []
    log(f"attach: {ATTACH_ROUNDS} rounds, each attaching twice to a new JVM per way of running weft")
    for i in range(ATTACH_ROUNDS):
        order = list(configs) if i % 2 == 0 else list(reversed(configs))
        for c in order:
            target = start_attach_target(cp)
            try:
                steps, d = attach_once(configs[c], target.pid, "first")
                first[c].append(steps)
                steps, d2 = attach_once(configs[c], target.pid, "again")
                again[c].append(steps)
                if c == "./weft":
                    detach += [d, d2]
            except BaseException:
                target.kill()
                target.communicate()
                raise
            stop_attach_target(target)

    def med(series, key):
        return statistics.median(s[key] for s in series)

    for c in configs:
        total = [s["first"] for s in first[c]]
        ok = statistics.median(total) <= 1000
        row(8, f"{c} attach PID → first recorded event, ms (first attach to a JVM)",
            spread(total, "{:.0f}"), "≤ 1000 ms", met(ok))
        row(8, f"{c}: attach again after detach → first event, ms",
            spread([s["first"] for s in again[c]], "{:.0f}"))
        for label, series in (("first attach", first[c]), ("again", again[c])):
            parts = [("JVM start", "main"), ("CLI to attach call", "attach"),
                     ("attach listener + VirtualMachine.attach", "attached"),
                     ("loadAgent to agentmain", "agentmain"), ("agent start (woven)", "recording")]
            text, prev = [], 0.0
            for name, key in parts:
                text.append(f"{name} {med(series, key) - prev:.0f}")
                prev = med(series, key)
            text.append(f"to first event {med(series, 'first') - prev:+.0f}")
            text.append(f"weft exits at {med(series, 'exit'):.0f}")
            row(8, f"{c}: where the time goes ({label}; medians, ms)", "; ".join(text))
    row(8, "./weft detach PID, ms (wall)", spread(detach, "{:.0f}"))
    row(8, "./weft first run (prepares its class-data-sharing archive), s", f"{prepare:.1f}")
    notes.append((8, f"{ATTACH_ROUNDS} rounds; each starts a JVM that enters a user region and "
                     "takes a `ReentrantLock` every millisecond, then runs `weft attach PID "
                     "--duration 0 --timings`, `weft detach PID`, and both again (a second attach "
                     "after a detach), once with the `./weft` launcher (which runs weft with a "
                     "class-data-sharing archive and C1 only for attach/detach) and once with "
                     "`java -jar weft.jar`, in alternating order. Latency = the first recorded "
                     "event's wall-clock time (the trace clock's epoch mapping, `weft summary "
                     "--format json`) minus the moment the command was started. Steps come from "
                     "`--timings` (CLI.md): the weft JVM's start until `main`, picocli until the "
                     "attach command runs, `VirtualMachine.attach` (on the first attach the "
                     "target's attach listener starts first), `loadAgent` until the agent's "
                     "`agentmain` runs, "
                     "the agent's start until its classes are woven; the first event may come "
                     "before the agent answers (negative)."))


# ---------------------------------------------------------------- report


def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^model name\s*:\s*(.*)$", f.read(), re.M)
            model = m.group(1) if m else model
    except OSError:
        pass
    return os.cpu_count(), model


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def java_version(java):
    p = subprocess.run([java, "-version"], capture_output=True, text=True)
    return " / ".join(l.strip() for l in p.stderr.splitlines()[:2])


def table(md):
    head = ("#", "figure", "measured: median (min–max)", "goal", "")
    lines = [head] + [(str(f), w, m, g, v) for f, w, m, g, v in rows]
    if md:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in l) + " |" for l in lines[1:]]
        return "\n".join(out)
    widths = [max(len(l[i]) for l in lines) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(widths[i]) for i, c in enumerate(l)).rstrip()
                     for l in lines)


def main():
    start = datetime.datetime.now(datetime.timezone.utc)
    load0 = loadavg()
    figures = [figure_hot_path, figure_locks, figure_forkjoin, figure_apps, figure_startup,
               figure_bytes, figure_analyzer, figure_attach]
    # run.sh --only 1,5 (or WEFT_BENCH_FIGURES=1,5): a subset, printed but not written to
    # BENCHMARKS.md, which always holds a whole run.
    only = os.environ.get("WEFT_BENCH_FIGURES")
    if only:
        figures = [f for i, f in enumerate(figures, 1) if str(i) in only.split(",")]
    try:
        for fig in figures:
            try:
                fig()
            except (RuntimeError, subprocess.CalledProcessError, OSError, ValueError,
                    AttributeError, KeyError, ArithmeticError) as e:
                row(fig.__name__, "error", f"FAILED: {str(e).splitlines()[0][:200]}")
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    end = datetime.datetime.now(datetime.timezone.utc)
    load1 = loadavg()
    cores, model = machine()
    print(table(False))
    if only:
        log("only figures " + only + ": BENCHMARKS.md left as it is")
        return
    jdk25 = "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"
    md = [
        "# Weft benchmarks",
        "",
        f"Produced by `benchmarks/run.sh --{MODE}` on {start:%Y-%m-%d %H:%M} UTC "
        f"({(end - start).seconds // 60} min). Re-run it to refresh this file; the figures depend "
        "on the machine and its load, so every comparison is made within one run (interleaved "
        "where it matters) and shown with its spread.",
        "",
        "## Machine",
        "",
        f"- {cores} cores: {model}",
        f"- load average (1, 5, 15 min) at start: {load0}; at end: {load1}",
        f"- JDK used: {java_version(JAVA)}",
        f"- agent: {os.path.relpath(AGENT, ROOT)}; lock weaving: "
        f"{'yes' if agent_has('ReentrantLocks') else 'no'}, fork-join weaving: "
        f"{'yes' if agent_has('ForkJoinTasks') else 'no'}",
        f"- JDK 25 present (not used by this run): "
        f"{java_version(jdk25) if os.path.exists(jdk25) else 'no'}",
        "",
        "## Results",
        "",
        table(True),
        "",
        "## Figures: goal and method",
        "",
        "1. **Hot path** — goal ≤ 30 ns per event, floor ≈ one `System.nanoTime()`.",
        "2. **Uncontended locks** — goal ≤ 90 ns added per lock+unlock (3 events). JMH "
        "`LockBenchmark`, without and with the agent.",
        "3. **Fine-grained fork-join and parallel streams** — full tracing of tiny tasks cannot be "
        "cheap; the aggregated mode (`tasks=aggregate`) aims at ≤ 1.5×. JMH `ForkJoinBenchmark` "
        "without the agent, with `tasks=all` and with `tasks=aggregate`.",
        "4. **Coarse-grained apps** — goal ≤ 3 % overhead and never more than JFR `profile`; "
        "async-profiler's lock mode beside them.",
        "5. **Start-up** — goal ≤ 300 ms added to a Hello-world JVM.",
        "6. **Bytes per event** — goal ≤ 6 bytes per event on disk on average.",
        "7. **Analyzer** — goal ≥ 20 M events/s on one core, memory flat in trace length.",
        "8. **Attach latency** — goal: recording within 1 s of `weft attach`.",
        "",
    ]
    for n, text in sorted(notes):
        md.append(f"- Figure {n}: {text}")
    md.append("")
    path = os.path.join(ROOT, "BENCHMARKS.md")
    under_table, after = kept_text(path)
    at = md.index("## Figures: goal and method")
    md = md[:at] + [TABLE_END, *under_table, *md[at:], OUTPUT_END, *after]
    with open(path, "w") as f:
        f.write("\n".join(md).rstrip("\n") + "\n")
    log(f"wrote {path}")


# BENCHMARKS.md holds this run's output and text written by hand beside it (measurements made
# with other scripts, what the figures say): these lines mark what a run leaves as it is.
TABLE_END = ("<!-- benchmarks/run.sh writes what is above; what follows, up to its goals and "
             "method, is kept as written -->")
OUTPUT_END = "<!-- benchmarks/run.sh writes what is above; what follows is kept as written -->"


def kept_text(path):
    """The hand-written lines of BENCHMARKS.md: those under the results table, and those after
    the run's goals and method."""
    if not os.path.exists(path):
        return [], []
    with open(path) as f:
        lines = f.read().splitlines()
    figures = lines.index("## Figures: goal and method") if \
        "## Figures: goal and method" in lines else len(lines)
    if TABLE_END in lines and OUTPUT_END in lines:
        return lines[lines.index(TABLE_END) + 1:figures], lines[lines.index(OUTPUT_END) + 1:]
    # A file written before the marks: the table ends at its first blank line after "## Results";
    # the run's goals and method at the first heading after them.
    results = lines.index("## Results") if "## Results" in lines else 0
    row_seen = False
    table_end = figures
    for i in range(results, figures):
        if lines[i].startswith("|"):
            row_seen = True
        elif row_seen and not lines[i].strip():
            table_end = i
            break
    after = next((i for i in range(figures + 1, len(lines)) if lines[i].startswith("## ")),
                 len(lines))
    return lines[table_end:figures], lines[after:]


if __name__ == "__main__":
    main()
