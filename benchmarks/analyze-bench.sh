#!/usr/bin/env bash
# Analyzer throughput and memory: builds benchmarks.jar, writes synthetic traces of 10 M and 100 M
# events under a temporary directory in /tmp, analyses each under /usr/bin/time -v, and prints
# events/s (wall, the analysing thread's CPU, the whole process's CPU) and peak RSS. Memory must
# stay flat between the two sizes: the analyzer streams the trace and keeps only per-thread and
# live-object state. Each trace is analysed ROUNDS times in each mode, interleaved: one thread
# (--threads 1), the trace read ahead on a thread of its own (--threads 2), and the critical path
# on a third (--threads 3), each line with the load average beside it. For each trace it also prints the reader alone (the merged cursor with no
# analysis, in a fresh JVM, directly and read ahead): the floor under the analysis. On a shared
# machine compare medians.
#
#   benchmarks/analyze-bench.sh [THREADS] [MIX]
#   EVENTS="40000000" ROUNDS=3 benchmarks/analyze-bench.sh 4 locks=1
#
# THREADS defaults to 8, MIX to regions=4,locks=1,barriers=1,tasks=1 (see SyntheticTrace), EVENTS
# to "10000000 100000000", ROUNDS to 1. The traces (about 70 MB and 700 MB) are deleted afterwards.
# BENCH_HEAP (default "-Xmx1g -XX:+UseSerialGC", the collector ./weft analyses with) holds the JVM's
# heap options. Needs /usr/bin/time (GNU time).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
threads="${1:-8}"
mix="${2:-regions=4,locks=1,barriers=1,tasks=1}"
java="${JAVA:-java}"
heap="${BENCH_HEAP:--Xmx1g -XX:+UseSerialGC}"

(cd "$root" && mvn -B -q -pl benchmarks -am package -DskipTests)
jar="$here/target/benchmarks.jar"
work="$(mktemp -d /tmp/weft-analyze-bench.XXXXXX)"
trap 'rm -rf "$work"' EXIT

for events in ${EVENTS:-10000000 100000000}; do
  trace="$work/trace-$events"
  "$java" -cp "$jar" dev.weft.analysis.SyntheticTrace --out "$trace" --events "$events" \
    --threads "$threads" --mix "$mix"
  echo "trace size: $(du -sh "$trace" | cut -f1)"
  for round in $(seq 1 "${ROUNDS:-1}"); do
    for analysis_threads in 1 2 3; do
      echo "round $round, --threads $analysis_threads, load average before:" \
        "$(cut -d' ' -f1-3 /proc/loadavg)"
      /usr/bin/time -v -o "$work/time.txt" "$java" $heap -cp "$jar" \
        dev.weft.bench.AnalysisBenchmark --threads "$analysis_threads" "$trace"
      rss_kb="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")"
      elapsed="$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt")"
      echo "peak RSS: $((rss_kb / 1024)) MiB (JVM process, $heap), process wall time $elapsed"
    done
  done
  "$java" $heap -cp "$jar" dev.weft.bench.AnalysisBenchmark --read-only "$trace"
  rm -rf "$trace"
done
