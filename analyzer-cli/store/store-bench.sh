#!/usr/bin/env bash
# Prints the store's figures (BENCHMARKS.md): append rate and the trend query over the stored runs.
# Usage: analyzer-cli/store/store-bench.sh [RUNS=1000] [CELLS_PER_RUN=200]
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$here"
# One reactor build: the class path of the store's tests, with the modules' own target/classes.
cpfile="$(mktemp)"
trap 'rm -f "$cpfile"' EXIT
mvn -B -q -pl analyzer-cli/store -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile"
cp="$(cat "$cpfile")"
java -cp "analyzer-cli/store/target/test-classes:analyzer-cli/store/target/classes:$cp" \
  dev.weft.store.StoreBench "${1:-1000}" "${2:-200}"
