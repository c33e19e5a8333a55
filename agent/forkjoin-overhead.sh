#!/usr/bin/env bash
# The worst case for tracing tasks: a recursive Fibonacci on a fork-join pool of two workers with a
# tiny threshold (each task costs tens of nanoseconds), timed without the agent, with the agent
# recording every task (tasks=all, the default) and with aggregated tasks (tasks=aggregate).
#
#   agent/forkjoin-overhead.sh [java] [n] [threshold] [jvm runs per mode] [modes]
#
# Defaults: java on the PATH, fib(30), threshold 2, 5 JVMs per mode, modes "plain aggregate all"
# (plain must be among them), started in turn (plain,
# aggregate, all, plain, ...) so that a noisy host hits every mode alike. Each JVM warms up with 4
# computations, then times 11 and reports the median wall time and the median CPU time (all threads,
# the agent's included) of one computation; the script prints the median over JVMs per mode, the
# ratios to the plain run and the CPU time added per task. On a shared host, CPU time is the steadier
# figure: wall time also counts the time other processes held the cores.
# Needs agent/target/weft-agent.jar (mvn -B -q -pl agent -am package -DskipTests).
#
# What to expect: recording every task costs several events per task (create, begin, end, and the
# join wait around each join) against tasks of tens of nanoseconds, so tasks=all is many times
# slower; tasks=aggregate records a summary per stolen task and aims at 1.5x or less.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java="${1:-java}"
n="${2:-30}"
threshold="${3:-2}"
runs="${4:-5}"
modes="${5:-plain aggregate all}"
jar="$here/target/weft-agent.jar"
[[ -f "$jar" ]] || { echo "forkjoin-overhead.sh: build the agent first" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/classes"
cat > "$work/src/FibOverhead.java" <<'JAVA'
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;

public class FibOverhead {
  static int threshold;

  static final class Fib extends RecursiveTask<Long> {
    final int n;

    Fib(int n) {
      this.n = n;
    }

    @Override
    protected Long compute() {
      if (n <= threshold) {
        return seq(n);
      }
      Fib f1 = new Fib(n - 1);
      f1.fork();
      Fib f2 = new Fib(n - 2);
      return f2.compute() + f1.join();
    }
  }

  static long seq(int n) {
    return n < 2 ? n : seq(n - 1) + seq(n - 2);
  }

  /** Tasks run per computation: the root and every forked task. */
  static long tasks(int n) {
    return n <= threshold ? 0 : 1 + tasks(n - 1) + tasks(n - 2);
  }

  /** CPU time of all live threads (the agent's own included), in nanoseconds. */
  static long cpuOfAllThreads(ThreadMXBean threads) {
    long sum = 0;
    for (long id : threads.getAllThreadIds()) {
      long t = threads.getThreadCpuTime(id);
      sum += Math.max(0, t);
    }
    return sum;
  }

  public static void main(String[] args) {
    int n = Integer.parseInt(args[0]);
    threshold = Integer.parseInt(args[1]);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    ForkJoinPool pool = new ForkJoinPool(2);
    double[] wall = new double[11];
    double[] cpu = new double[wall.length];
    for (int i = -4; i < wall.length; i++) {
      long c0 = cpuOfAllThreads(threads);
      long t0 = System.nanoTime();
      pool.invoke(new Fib(n));
      if (i >= 0) {
        wall[i] = (System.nanoTime() - t0) / 1e6;
        cpu[i] = (cpuOfAllThreads(threads) - c0) / 1e6;
      }
    }
    Arrays.sort(wall);
    Arrays.sort(cpu);
    System.out.printf("%.2f %.2f %d%n", wall[wall.length / 2], cpu[cpu.length / 2], tasks(n) + 1);
  }
}
JAVA
"$java" -version 2>&1 | head -1
javac --release 17 -d "$work/classes" "$work/src/FibOverhead.java"
declare -A wall cpu
tasks=0
for ((r = 0; r < runs; r++)); do
  for mode in $modes; do
    if [[ $mode == plain ]]; then
      out=$("$java" -cp "$work/classes" FibOverhead "$n" "$threshold")
    else
      rm -rf "$work/trace"
      out=$("$java" "-javaagent:$jar=out=$work/trace,tasks=$mode" -cp "$work/classes" \
        FibOverhead "$n" "$threshold")
    fi
    read -r w c tasks <<<"$out"
    wall[$mode]+="$w "
    cpu[$mode]+="$c "
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf "fib(%d), threshold %d: %d tasks per computation, %d JVMs per mode\n" "$n" "$threshold" "$tasks" "$runs"
printf "%-10s %12s %12s %10s %10s %14s\n" mode "wall ms" "cpu ms" "wall x" "cpu x" "cpu ns/task+"
pw=$(echo "${wall[plain]}" | median)
pc=$(echo "${cpu[plain]}" | median)
for mode in $modes; do
  w=$(echo "${wall[$mode]}" | median)
  c=$(echo "${cpu[$mode]}" | median)
  awk -v m="$mode" -v w="$w" -v c="$c" -v pw="$pw" -v pc="$pc" -v t="$tasks" \
    'BEGIN { printf "%-10s %12.1f %12.1f %10.2f %10.2f %14.0f\n", m, w, c, w / pw, c / pc, (c - pc) * 1e6 / t }'
done
