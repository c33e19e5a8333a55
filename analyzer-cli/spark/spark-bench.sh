#!/usr/bin/env bash
# Prints Spark's figures beside DuckDB's (BENCHMARKS.md): session start, opening a store, the
# trend's queries over its runs; then weft query --engine spark end to end (child JVM included).
# Usage: analyzer-cli/spark/spark-bench.sh [RUNS=1000] [CELLS_PER_RUN=200] [STORE_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$here"
store="${3:-$(mktemp -d)/store}"
# Each module writes its test class path to its own target/ (weft's modules as their jars).
mvn -B -q -Pspark -pl analyzer-cli/cli,analyzer-cli/spark -am package -DskipTests \
  dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-classpath.txt
cp="$(cat analyzer-cli/spark/target/test-classpath.txt)"
# The module options Spark's own launcher gives its JVMs.
printer="$(mktemp -d)/Options.java"
echo 'class Options { public static void main(String[] a) {
  System.out.print(org.apache.spark.launcher.JavaModuleOptions.defaultModuleOptions()); } }' > "$printer"
# shellcheck disable=SC2046  # several options
java $(java -cp "$(echo analyzer-cli/spark/target/lib/spark-launcher_*.jar)" "$printer") \
  -Dlog4j2.configurationFile=classpath:dev/weft/spark/log4j2.properties \
  -cp "analyzer-cli/spark/target/test-classes:analyzer-cli/spark/target/classes:$cp" \
  dev.weft.spark.SparkBench "${1:-1000}" "${2:-200}" "$store"
for engine in duckdb spark; do
  for i in 1 2 3; do
    start=$(date +%s%N)
    java -jar analyzer-cli/cli/target/weft.jar query --engine "$engine" "$store" "SELECT count(*) AS cells FROM results" > /dev/null
    echo "weft query --engine $engine (count the cells), end to end: $(( ($(date +%s%N) - start) / 1000000 )) ms"
  done
done
