#!/usr/bin/env bash
# Prints the export rates of 'weft export --format parquet' (BENCHMARKS.md) on a synthetic trace.
# Usage: analyzer-cli/store/export-bench.sh [EVENTS=40000000] [THREADS=8]
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$here"
mvn -B -q -pl analyzer-cli/store -am test-compile
cp="$(mvn -B -q -pl analyzer-cli/store dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/dev/stdout)"
java ${BENCH_HEAP:--Xmx2g} -cp "analyzer-cli/store/target/test-classes:analyzer-cli/store/target/classes:$cp" \
  dev.weft.store.ExportBench "${1:-40000000}" "${2:-8}"
