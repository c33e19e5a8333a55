#!/usr/bin/env bash
# Size of the HTML report and its open time in headless Chromium, for generated traces of up to
# 10 million events (see ReportBench). Needs /usr/bin/chromium (apt-get install -y chromium).
#   analyzer-cli/report-bench.sh                 # detailed-at-limit, 1 M, 10 M, 1000 threads
#   analyzer-cli/report-bench.sh 1000000 50000000
# Expect: every page well under 5 MiB and opening well under 3 s; exits 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -pl analyzer-cli/cli -am package -DskipTests
java -Xmx1g -cp analyzer-cli/cli/target/weft.jar:analyzer-cli/report/target/test-classes \
  dev.weft.report.ReportBench "$@"
