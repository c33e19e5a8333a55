#!/usr/bin/env bash
# Prints the store's figures (BENCHMARKS.md): append rate, files read, and the trend over the
# stored runs, three times warm (one JVM) and three times cold (a new JVM each), wall and CPU
# time, with the load. STORE_DIR=dir keeps the store there (and reuses it if it has runs).
# Usage: analyzer-cli/store/store-bench.sh [RUNS=1000] [CELLS_PER_RUN=200]
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$here"
# One reactor build: the class path of the store's tests, with the modules' own target/classes.
cpfile="$(mktemp)"
store="${STORE_DIR:-$(mktemp -d)}"
if [[ -n "${STORE_DIR:-}" ]]; then trap 'rm -f "$cpfile"' EXIT; else trap 'rm -rf "$cpfile" "$store"' EXIT; fi
mvn -B -q -pl analyzer-cli/store -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile"
cp="analyzer-cli/store/target/test-classes:analyzer-cli/store/target/classes:$(cat "$cpfile")"
runs="${1:-1000}"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -d "$store/runs" ]]; then
  java -cp "$cp" dev.weft.store.StoreBench warm "$store" "$runs"
else
  java -cp "$cp" dev.weft.store.StoreBench "$runs" "${2:-200}" "$store"
fi
for i in 1 2 3; do
  start=$(date +%s%N)
  java -cp "$cp" dev.weft.store.StoreBench trend "$store" "$runs"
  echo "  whole process (JVM start to exit): $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
# What a user runs: the weft command (its JVM, picocli, DuckDB's driver from lib/ with its native
# library unpacked once beside it, the store's open and the trend's queries).
mvn -B -q -pl analyzer-cli/cli -am package -DskipTests -Dfmt.skip
for i in 1 2 3; do
  start=$(date +%s%N)
  ./weft trend "$store" --property lock_contention --last "$runs" > /dev/null
  echo "weft trend --last $runs (whole command): $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
