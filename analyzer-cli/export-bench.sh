#!/usr/bin/env bash
# Size of 'weft export' output on recorded test programs: bytes of Chrome/Perfetto JSON per Weft
# event (goal: at most 60), and the OTF2 archive's size, read back with otf2-print (apt-get install
# -y otf2-tools). Records the test apps' scenarios with the agent first.
#   analyzer-cli/export-bench.sh
# Exits 1 when a JSON export of 10,000 events or more exceeds 60 bytes per event (in smaller ones
# the header and thread names weigh in), or when otf2-print cannot read an archive.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -pl analyzer-cli/cli,testapps -am package -DskipTests
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
status=0
bench() {
  local name="$1"
  shift
  ./weft demo --out "$dir/$name" "$@" >"$dir/$name.log" 2>&1
  local line per events
  line="$(./weft export "$dir/$name" -o "$dir/$name.json" 2>&1)"
  per="$(sed -n 's/.* \([0-9.]*\) bytes per event.*/\1/p' <<<"$line")"
  ./weft export "$dir/$name" --format otf2 -o "$dir/$name.otf2" 2>"$dir/$name.otf2.log"
  events="$(sed -n 's/.*locations, \([0-9]*\) events).*/\1/p' "$dir/$name.otf2.log")"
  if ! otf2-print "$dir/$name.otf2/traces.otf2" >/dev/null 2>"$dir/$name.otf2-print.log"; then
    echo "$name: otf2-print failed: $(head -c 300 "$dir/$name.otf2-print.log")"
    status=1
  fi
  printf '%-22s chrome %6.1f bytes/event (%9d bytes)   otf2 %8d events, %9d bytes\n' \
    "$name" "$per" "$(stat -c %s "$dir/$name.json")" "$events" \
    "$(du -sb "$dir/$name.otf2" | cut -f1)"
  if awk -v p="$per" -v b="$(stat -c %s "$dir/$name.json")" \
    'BEGIN { exit !(p > 60 && b / p >= 10000) }'; then
    echo "$name: more than 60 bytes per event"
    status=1
  fi
}
bench fork-join fork-join-imbalance --parallelism 4 --elements 2000 --max-ms 1 --skew 0
bench lock-contention lock-contention --threads 8 --sections 500 --hold-ms 0 --think-ms 0
bench sparse-cg sparse-cg --iterations 200
bench executor-queue executor-queue --threads 4 --tasks 3000 --task-ms 0
bench nested nested
exit "$status"
