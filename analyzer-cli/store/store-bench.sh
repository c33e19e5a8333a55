#!/usr/bin/env bash
# Prints the store's figures (BENCHMARKS.md): append rate and the trend query over the stored runs.
# Usage: analyzer-cli/store/store-bench.sh [RUNS=1000] [CELLS_PER_RUN=200]
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$here"
mvn -B -q -pl analyzer-cli/store -am test-compile
cp="$(mvn -B -q -pl analyzer-cli/store dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)"
java -cp "analyzer-cli/store/target/test-classes:analyzer-cli/store/target/classes:$cp" \
  dev.weft.store.StoreBench "${1:-1000}" "${2:-200}"
