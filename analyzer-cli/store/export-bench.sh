#!/usr/bin/env bash
# Prints the export rates of 'weft export --format parquet' (BENCHMARKS.md) on a synthetic trace.
# Usage: analyzer-cli/store/export-bench.sh [EVENTS=40000000] [THREADS=8] [CODECS=UNCOMPRESSED,GZIP] [PASSES=2]
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$here"
# One reactor build: the class path of the store's tests, with the modules' own target/classes.
cpfile="$(mktemp)"
trap 'rm -f "$cpfile"' EXIT
mvn -B -q -pl analyzer-cli/store -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$cpfile"
cp="$(cat "$cpfile")"
java ${BENCH_HEAP:--Xmx2g} -cp "analyzer-cli/store/target/test-classes:analyzer-cli/store/target/classes:$cp" \
  dev.weft.store.ExportBench "${1:-40000000}" "${2:-8}" "${3:-UNCOMPRESSED,GZIP}" "${4:-2}"
