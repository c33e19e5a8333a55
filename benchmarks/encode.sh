#!/usr/bin/env bash
# What does one event cost on the agent's hot path? Builds the benchmarks, runs EncodeBenchmark
# briefly (JMH progress on stderr) and prints: median ns/event, JMH's 99.9% error, bytes/event.
# Usage: benchmarks/encode.sh [forks=3] [measured iterations per fork=5]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -pl benchmarks -am package -DskipTests
exec "${JAVA:-java}" -cp benchmarks/target/benchmarks.jar dev.weft.bench.EncodeBenchmark \
  "${1:-3}" "${2:-5}"
