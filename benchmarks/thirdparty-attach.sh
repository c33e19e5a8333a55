#!/usr/bin/env bash
# Checks Weft's attached recordings of third-party workloads against recordings from the JVM's
# start: per workload, one run traced from its start and one plain run that `weft attach` records
# for a few seconds in its middle; prints, for both, each property's share of the threads' time,
# the attached analysis's notes (what it could not see), and whether both traces verify.
#
#   benchmarks/thirdparty-attach.sh [--after SECONDS] [--for SECONDS] [--out DIR] [WORKLOAD...]
#
# Defaults: attach 2 s after the start, record 3 s, all seventeen workloads of thirdparty.sh, each at a
# scale that runs about 8 s plain, so that the recording ends well before the program. JAVA picks the JVM (as for
# thirdparty.sh). A property whose share differs by more than 10 points between the two recordings
# is marked: the attached recording saw the program differently (or the program has phases: read
# the notes). Not part of CI. Needs java, javac, mvn, python3.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
tp="$here/thirdparty"
after=2
for=3
out="${TMPDIR:-/tmp}/weft-thirdparty-attach"
workloads=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --after) after="$2"; shift ;;
    --for) for="$2"; shift ;;
    --out) out="$2"; shift ;;
    h2|hsqldb|reactor|caffeine|lucene|disruptor|netty|jetty|ejml|rxjava|pekko|vertx|hikari|coroutines|quartz|tomcat|undertow) workloads+=("$1") ;;
    *) echo "usage: benchmarks/thirdparty-attach.sh [--after S] [--for S] [--out DIR] [h2|hsqldb|reactor|caffeine|lucene|disruptor|netty|jetty|ejml|rxjava|pekko|vertx|hikari|coroutines|quartz|tomcat|undertow...]" >&2; exit 2 ;;
  esac
  shift
done
[[ ${#workloads[@]} -gt 0 ]] || workloads=(h2 hsqldb reactor caffeine lucene disruptor netty jetty ejml rxjava pekko vertx hikari coroutines quartz tomcat undertow)
declare -A scale=([h2]=3 [hsqldb]=0.5 [reactor]=3 [caffeine]=1.4 [lucene]=0.6 [disruptor]=2.3 [netty]=0.7 [jetty]=1.2 [ejml]=13 [rxjava]=1.2 [pekko]=2 [vertx]=2 [hikari]=2.5 [coroutines]=2.5 [quartz]=2.5 [tomcat]=1 [undertow]=1)

source "$tp/prepare.sh"
java="${JAVA:-java}"
mkdir -p "$out"

for w in "${workloads[@]}"; do
  d="$out/$w"
  rm -rf "$d" && mkdir -p "$d"
  echo "$w: from the start" >&2
  "$java" "-javaagent:$root/agent/target/weft-agent.jar=out=$d/start" -cp "$cp" thirdparty.Main "$w" "${scale[$w]}" \
    > "$d/start.out" 2> "$d/start.err" || echo "$w (from the start) failed: $(tail -3 "$d/start.err")" >&2
  echo "$w: attached after ${after} s for ${for} s" >&2
  "$java" -cp "$cp" thirdparty.Main "$w" "${scale[$w]}" > "$d/attached.out" 2> "$d/attached.err" &
  pid=$!
  sleep "$after"
  "$root/weft" attach "$pid" --duration "${for}s" --out "$d/attached" > "$d/attach.log" 2>&1 \
    || echo "$w: weft attach failed: $(tail -3 "$d/attach.log")" >&2
  wait "$pid" || echo "$w (attached) failed: $(tail -3 "$d/attached.err")" >&2
  for t in start attached; do
    [[ -d "$d/$t" ]] || continue
    "$root/weft" analyze "$d/$t" > "$d/$t.txt" 2>&1 || true
    "$root/weft" analyze "$d/$t" --format json -o "$d/$t.json" > /dev/null 2>&1 || true
    "$root/weft" verify "$d/$t" > "$d/$t.verify" 2>&1 && echo ok >> "$d/$t.verify" || echo failed >> "$d/$t.verify"
  done
  python3 "$tp/attachcompare.py" "$d" "$w" | tee "$d/compare.txt"
done
