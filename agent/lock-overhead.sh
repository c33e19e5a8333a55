#!/usr/bin/env bash
# Measures what recording costs per uncontended lock acquisition: a loop takes and releases a
# ReentrantLock (lock(); unlock();), enters and leaves a synchronized block, and calls a
# synchronized method, on one thread (never contended). Each lock+unlock pair records 3 events
# (LOCK_REQUEST, LOCK_ACQUIRED, LOCK_RELEASED). Runs without the agent, with the agent recording, and
# with the agent but measurement off (start=off: woven calls reach the recorder, which returns).
#
#   agent/lock-overhead.sh [java] [extra JVM options...]
#
# e.g. agent/lock-overhead.sh /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
#      agent/lock-overhead.sh java -XX:-EliminateLocks   (no lock coarsening in the baseline)
#
# Needs agent/target/weft-agent.jar (mvn -B -q -pl agent -am package -DskipTests). Prints ns per
# pair (median of 9 rounds of 2,000,000 pairs after warm-up; the cases run interleaved, 3 times
# each, and the median of those is shown) and the added cost per pair and per event. Times are the
# CPU time of the looping thread: on a shared host, preemption inflates wall-clock figures but
# hardly CPU time (set CLOCK=wall for elapsed time). The clock line is what one System.nanoTime()
# costs in the same way: an uncontended acquisition records REQUEST and ACQUIRED with one
# timestamp (the lock was free), so a pair needs two.
#
# BASELINE_JAR=/path/to/other/weft-agent.jar adds a column for that agent jar (e.g. one built from
# an earlier commit), run interleaved with the others, to compare two versions in one run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
java="${1:-java}"
shift || true
jvm=("$@")
jar="$here/target/weft-agent.jar"
[[ -f "$jar" ]] || { echo "lock-overhead.sh: build the agent first" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/classes"
cat > "$work/src/LockOverhead.java" <<'JAVA'
import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

public class LockOverhead {
  static final boolean CPU = !"wall".equals(System.getenv("CLOCK"));
  static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();
  static final ReentrantLock lock = new ReentrantLock();
  static final Object monitor = new Object();
  static long counter;

  static void reentrantLock(int n) {
    for (int i = 0; i < n; i++) {
      lock.lock();
      try {
        counter++;
      } finally {
        lock.unlock();
      }
    }
  }

  static void synchronizedBlock(int n) {
    for (int i = 0; i < n; i++) {
      synchronized (monitor) {
        counter++;
      }
    }
  }

  static synchronized void increment() {
    counter++;
  }

  static void synchronizedMethod(int n) {
    for (int i = 0; i < n; i++) {
      increment();
    }
  }

  interface Loop {
    void run(int n);
  }

  static long now() {
    return CPU ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }

  static double median(Loop loop, int pairs) {
    double[] ns = new double[9];
    for (int r = 0; r < ns.length; r++) {
      long t0 = now();
      loop.run(pairs);
      ns[r] = (now() - t0) / (double) pairs;
    }
    Arrays.sort(ns);
    return ns[ns.length / 2];
  }

  public static void main(String[] args) {
    int pairs = 2_000_000;
    if (args.length > 0 && args[0].equals("clock")) {
      double[] ns = new double[9];
      long sink = 0;
      for (int r = -3; r < ns.length; r++) {
        long t0 = now();
        for (int i = 0; i < pairs; i++) {
          sink += System.nanoTime();
        }
        if (r >= 0) {
          ns[r] = (now() - t0) / (double) pairs;
        }
      }
      Arrays.sort(ns);
      System.out.printf("%.1f%n", ns[ns.length / 2] + (sink == 42 ? 1 : 0));
      return;
    }
    Loop[] loops = {LockOverhead::reentrantLock, LockOverhead::synchronizedBlock, LockOverhead::synchronizedMethod};
    for (int w = 0; w < 5; w++) {
      for (Loop l : loops) {
        l.run(pairs); // warm-up: compile the loops and the woven code
      }
    }
    if (args.length > 0 && args[0].equals("off")) {
      try {
        Class.forName("dev.weft.api.Weft").getMethod("off").invoke(null);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    StringBuilder out = new StringBuilder();
    for (Loop l : loops) {
      out.append(String.format("%.1f ", median(l, pairs)));
    }
    System.out.println(out.toString().trim());
  }
}
JAVA
javac --release 17 -d "$work/classes" "$work/src/LockOverhead.java"
api="$(ls "$here"/../api/target/weft-api-*.jar 2>/dev/null | grep -v sources | head -1 || true)"
cp="$work/classes${api:+:$api}"
run() { "$java" "${jvm[@]}" "$@"; }
clock=$(run -cp "$cp" LockOverhead clock)
declare -a base rec off old
old_jar="${BASELINE_JAR:-}"
for i in 1 2 3; do
  base+=("$(run -cp "$cp" LockOverhead)")
  rec+=("$(run "-javaagent:$jar=out=$work/t$i" -cp "$cp" LockOverhead)")
  if [[ -n "$old_jar" ]]; then
    old+=("$(run "-javaagent:$old_jar=out=$work/b$i" -cp "$cp" LockOverhead)")
  fi
  if [[ -n "$api" ]]; then
    off+=("$(run "-javaagent:$jar=out=$work/o$i" -cp "$cp" LockOverhead off)")
  fi
done
# median per column over the runs
med() { printf '%s\n' "$@" | awk -v c="$col" '{print $c}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "java: $(run -version 2>&1 | head -1)${jvm[*]:+ (${jvm[*]})}"
echo "ns per System.nanoTime() on this host now: $clock (${CLOCK:-cpu} time; 2 per uncontended pair)"
printf '%-20s %10s %10s %10s %12s %12s' "ns per lock+unlock" "no agent" "recording" "off" "added/pair" "added/event"
[[ -n "$old_jar" ]] && printf ' %10s %12s' "baseline" "added/pair"
echo
names=("ReentrantLock" "synchronized block" "synchronized method")
for col in 1 2 3; do
  b=$(med "${base[@]}")
  r=$(med "${rec[@]}")
  o=$([[ ${#off[@]} -gt 0 ]] && med "${off[@]}" || echo "-")
  awk -v n="${names[$((col-1))]}" -v b="$b" -v r="$r" -v o="$o" \
    'BEGIN { printf "%-20s %10s %10s %10s %12.1f %12.1f", n, b, r, o, r - b, (r - b) / 3 }'
  if [[ -n "$old_jar" ]]; then
    p=$(med "${old[@]}")
    awk -v b="$b" -v p="$p" 'BEGIN { printf " %10s %12.1f", p, p - b }'
  fi
  echo
done
