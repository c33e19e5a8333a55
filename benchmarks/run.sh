#!/usr/bin/env bash
# Runs Weft's figures (hot path, locks, fork-join, coarse apps vs JFR, start-up, bytes per event,
# analyzer throughput, attach latency), prints one table and writes BENCHMARKS.md at the repo root.
#
#   benchmarks/run.sh [--quick|--full] [--only N[,N...]]
#
# --quick (default) takes a few minutes, --full about half an hour. --only runs just the figures
# numbered (e.g. --only 8 for attach latency) and prints their table without writing BENCHMARKS.md.
#
# Builds what it needs first (mvn -B -q package -DskipTests). Needs java/javac (JDK 17+), python3 and
# GNU time (/usr/bin/time). Not part of CI: the figures depend on the machine and its load, so they
# are reported with their spread and, wherever possible, as ratios measured in the same run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
mode="quick"
usage="usage: benchmarks/run.sh [--quick|--full] [--only N[,N...]]"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) mode="quick" ;;
    --full) mode="full" ;;
    --only)
      [[ $# -ge 2 && "$2" =~ ^[1-8](,[1-8])*$ ]] || { echo "$usage" >&2; exit 2; }
      export WEFT_BENCH_FIGURES="$2"
      shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
command -v python3 > /dev/null || { echo "run.sh: python3 is needed" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "run.sh: GNU time (/usr/bin/time) is needed" >&2; exit 2; }
echo "building (mvn -B -q package -DskipTests)..." >&2
(cd "$root" && mvn -B -q package -DskipTests)
exec python3 "$here/figures.py" "--$mode"
