#!/usr/bin/env bash
# Runs third-party concurrent workloads (H2, HSQLDB, Reactor, Caffeine, Lucene, LMAX Disruptor, Netty, Jetty, EJML, RxJava, Pekko, Vert.x, HikariCP, Kotlin coroutines, Quartz, all from Maven
# Central) plain, under Weft, under JFR (settings=profile) and under async-profiler (event=lock and
# event=wall), and prints, per workload, wall times and the top waits each tool reports, next to
# the JVM's own counters (ThreadMXBean contention monitoring) and the driver's own timings.
#
#   benchmarks/thirdparty.sh [--rounds N] [--out DIR] [WORKLOAD...]     (default: all fourteen, 2 rounds)
#
# WORKLOAD is h2, hsqldb, reactor, caffeine, lucene, disruptor, netty, jetty, ejml, rxjava, pekko, vertx, hikari, coroutines, quartz, tomcat, undertow (all seventeen by default), or h2-virtual (virtual threads: needs JAVA set to a JDK 21
# or later, e.g. JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; not in the default set). Wall times are the median over the rounds; the
# variants of one round run back to back, so compare ratios, not absolute times. The per-tool
# details (compare.py) are from the last round. Not part of CI. Needs java, javac, jfr, mvn, python3,
# GNU time (/usr/bin/time). The drivers are in benchmarks/thirdparty/src (benchmarks/THIRDPARTY.md).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
tp="$here/thirdparty"
rounds=2
out="${TMPDIR:-/tmp}/weft-thirdparty"
workloads=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --rounds) rounds="$2"; shift ;;
    --out) out="$2"; shift ;;
    h2|h2-virtual|hsqldb|reactor|caffeine|lucene|disruptor|netty|jetty|ejml|rxjava|pekko|vertx|hikari|coroutines|quartz|tomcat|undertow) workloads+=("$1") ;;
    *) echo "usage: benchmarks/thirdparty.sh [--rounds N] [--out DIR] [h2|h2-virtual|hsqldb|reactor|caffeine|lucene|disruptor|netty|jetty|ejml|rxjava|pekko|vertx|hikari|coroutines|quartz|tomcat|undertow...]" >&2; exit 2 ;;
  esac
  shift
done
[[ ${#workloads[@]} -gt 0 ]] || workloads=(h2 hsqldb reactor caffeine lucene disruptor netty jetty ejml rxjava pekko vertx hikari coroutines quartz tomcat undertow)

# Scale of each workload: about 4-8 s of plain run time on 2 cores.
declare -A scale=([h2]=0.15 [h2-virtual]=0.4 [hsqldb]=0.15 [reactor]=1 [caffeine]=0.4 [lucene]=0.12 [disruptor]=0.4 [netty]=0.25 [jetty]=0.5 [ejml]=8 [rxjava]=1 [pekko]=1 [vertx]=1.5 [hikari]=1.5 [coroutines]=1.5 [quartz]=1.5 [tomcat]=0.5 [undertow]=0.5)
# Thread-name prefixes of the workload's threads (JFR and async-profiler figures are restricted to them).
declare -A threads=([h2]="h2-worker-,main" [h2-virtual]="h2-vt-,main" [hsqldb]="hsqldb-worker-,main" [reactor]="reactor-worker-,main" [caffeine]="cache-reader-,async-reader-,cache-loader-,ForkJoinPool.commonPool,main"
  [lucene]="indexer-,Lucene Merge Thread,main" [disruptor]="disruptor-producer,disruptor-handler-,main"
  [netty]="netty-client-,netty-worker-,netty-boss-,main"
  [jetty]="jetty-client-,jetty-,Scheduler-,main" [ejml]="ForkJoinPool-,main"
  [rxjava]="RxNewThreadScheduler-,RxComputationThreadPool-,main"
  [pekko]="bench-pekko.actor.default-dispatcher-,main"
  [vertx]="vert.x-eventloop-thread-,vert.x-worker-thread-,vertx-blocked-thread-checker,main"
  [hikari]="hikari-worker-,main" [coroutines]="DefaultDispatcher-worker-,main"
  [quartz]="bench_,main" [tomcat]="tomcat-client-,http-nio-,Catalina-,main"
  [undertow]="undertow-client-,XNIO-,main")

source "$tp/prepare.sh"
mkdir -p "$tp/target/ap"
unzip -o -q -j "$tp"/target/lib/async-profiler-*.jar 'linux-x64/libasyncProfiler.so' -d "$tp/target/ap"
ap="$tp/target/ap/libasyncProfiler.so"
mkdir -p "$out"

# The JVM the workloads run on (JAVA), and the jfr tool beside it that reads their recordings.
java="${JAVA:-java}"
JFR="$(dirname "$(command -v "$java")")/jfr"
export JFR
run() { # run VARIANT WORKLOAD DIR JAVA_OPTS...: appends "variant elapsed user sys" to DIR/times
  local variant="$1" w="$2" d="$3"
  shift 3
  /usr/bin/time -f "$variant %e %U %S" -a -o "$d/times" \
    "$java" "$@" -cp "$cp" thirdparty.Main "$w" "${scale[$w]}" > "$d/$variant.out" 2> "$d/$variant.err" || {
    echo "$w/$variant failed: $(tail -3 "$d/$variant.err")" >&2
  }
}

for w in "${workloads[@]}"; do
  d="$out/$w"
  rm -rf "$d" && mkdir -p "$d"
  for ((r = 1; r <= rounds; r++)); do
    echo "$w: round $r/$rounds" >&2
    rm -rf "$d/trace" "$d/jfr.jfr"
    run plain "$w" "$d"
    run weft "$w" "$d" "-javaagent:$root/agent/target/weft-agent.jar=out=$d/trace"
    run jfr "$w" "$d" "-XX:StartFlightRecording=settings=profile,filename=$d/jfr.jfr"
    run ap-lock "$w" "$d" "-agentpath:$ap=start,event=lock,collapsed,total,file=$d/ap-lock.collapsed"
    run ap-wall "$w" "$d" "-agentpath:$ap=start,event=wall,interval=5ms,threads,collapsed,file=$d/ap-wall.collapsed"
  done
  /usr/bin/time -f "analyze %e %U %S" -a -o "$d/times" "$root/weft" analyze "$d/trace" > "$d/weft.txt"
  "$root/weft" analyze "$d/trace" --format json -o "$d/weft.json"
  "$root/weft" summary "$d/trace" --format json > "$d/weft-summary.json"
  # The trace of a program nobody here wrote must verify clean: errors and warnings are kept.
  "$root/weft" verify "$d/trace" > "$d/verify.txt" 2>&1 || true
  python3 "$tp/compare.py" "$d" "$w" "${threads[$w]}" | tee "$d/compare.txt"
done

python3 "$tp/table.py" "$out" "${workloads[@]}"
