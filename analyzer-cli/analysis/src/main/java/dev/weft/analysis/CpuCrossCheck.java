package dev.weft.analysis;

import dev.weft.trace.Definitions;
import dev.weft.trace.ThreadJvmCounts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Compares, per thread, the time the analysis counts as execution with the time the operating
 * system counted for the thread (the trailing fields of the agent's THREAD_JVM_COUNTS record): its
 * CPU time and its time runnable but waiting for a core.
 *
 * <p>Execution is a thread's time outside every recorded wait, plus what no property claims of
 * recorded ones (sleeps and yields, which programs do on purpose): this check leaves the latter
 * out, as their cause is known. A thread blocked where Weft records nothing — a socket read, a
 * selector, a file, a sleep or wait in native code, a JVM pause — is off the CPU and not waiting
 * for one, yet that time counts as execution, and the critical path takes it for work. What is
 * neither CPU nor run queue within a thread's execution is at least {@code execution − CPU − run
 * queue}: CPU spent inside recorded waits (spinning) only lowers that bound, and the agent's
 * figures span the thread's whole recorded life or a little more, so the bound never over-states. A
 * thread is named when it reaches {@link #MIN_NS} and {@link #SHARE} of the thread's lifetime.
 * Without a run-queue figure (threads from before an attach that recorded nothing themselves,
 * threads whose Linux id the agent could not have at the close, traces of older agents), waiting
 * for a core on a busy host cannot be told apart, and the note says so for that thread; the CPU
 * time of a thread that began before the agent's baseline ({@link #TIMES_FROM}) counts from it, and
 * that of a thread that began before an attach and measured its own times from its first event
 * counts from then (its record says when), so its time before is left out.
 */
final class CpuCrossCheck {
  /** Off-CPU execution per thread below this is never reported. */
  static final long MIN_NS = 20_000_000;

  /** Nor below this share of the thread's lifetime. */
  static final double SHARE = 0.10;

  /**
   * Waiting for a core is reported from this share of a thread's lifetime (and {@link #MIN_NS}).
   */
  static final double QUEUED_SHARE = 0.20;

  /** The trace attribute: when the agent took its baseline of threads that began before it. */
  static final String TIMES_FROM = "agent.thread_times_from";

  private CpuCrossCheck() {}

  /** A thread named by a note: {@code ns} of its {@code ofNs}. */
  record Named(String thread, long ns, long ofNs, boolean runQueueKnown) {}

  /** What the comparison found: threads off the CPU, and threads that waited for a core. */
  record Findings(List<Named> offCpu, List<Named> queued) {
    boolean isEmpty() {
      return offCpu.isEmpty() && queued.isEmpty();
    }
  }

  /**
   * Compares every thread's execution with its CPU and run-queue time.
   *
   * @param skip streams not to compare (dropped events, damaged stream)
   */
  static Findings find(Definitions defs, Replay replay, IntPredicate skip) {
    List<Named> off = new ArrayList<>();
    List<Named> queued = new ArrayList<>();
    if (defs.jvmCounts().isEmpty()) {
      return new Findings(off, queued);
    }
    long timesFrom = AttachLimits.traceTime(defs, TIMES_FROM);
    for (ThreadState th : replay.threads) {
      ThreadJvmCounts c = defs.jvmCounts(th.stream);
      if (c == null || !c.hasCpu() || skip.test(th.stream) || th.carrier) {
        continue;
      }
      long lifetime = th.end - th.begin;
      long runQueue = Math.max(0, c.runQueueNs());
      long outsideWaits = th.execTotal - th.execInWaits; // sleeps are execution, but recorded
      // CPU time from the JVM counts from the agent's baseline for threads that began before it,
      // and a thread that began before an attach measured its own times from its first event:
      // their CPU before then is unknown, so the time up to it is not held against them.
      long from = c.hasOwnTimesFrom() ? c.timesFromNs() : c.hasRunQueue() ? th.begin : timesFrom;
      long unmeasured = Math.max(0, Math.min(from, th.end) - th.begin);
      long offCpu = outsideWaits - c.cpuNs() - runQueue - unmeasured;
      if (offCpu >= MIN_NS && offCpu >= SHARE * lifetime) {
        off.add(new Named(th.name, offCpu, th.execTotal, c.hasRunQueue()));
      }
      if (runQueue >= MIN_NS && runQueue >= QUEUED_SHARE * lifetime) {
        queued.add(new Named(th.name, runQueue, lifetime, true));
      }
    }
    return new Findings(off, queued);
  }

  /**
   * The notes on what {@link #find} found; a named thread's time on the critical path, if any, is
   * given with it, as the path counts its time off the CPU as work.
   *
   * @param path the analysis' critical path, or null
   */
  static List<String> notes(Findings f, AnalysisResult.CriticalPath path) {
    Map<String, Long> onPath = new HashMap<>();
    if (path != null) {
      for (AnalysisResult.CriticalThread t : path.byThread()) {
        onPath.merge(t.thread(), t.ns(), Long::sum);
      }
    }
    List<String> notes = new ArrayList<>();
    if (!f.offCpu.isEmpty()) {
      JvmCrossCheck.Excess off = new JvmCrossCheck.Excess();
      boolean runQueueUnknown = false;
      boolean anyOnPath = false;
      for (Named n : f.offCpu) {
        long path0 = onPath.getOrDefault(n.thread, 0L);
        List<String> about = new ArrayList<>();
        if (!n.runQueueKnown) {
          about.add("run queue unknown");
        }
        if (path0 > 0) {
          about.add(TimeText.duration(path0) + " on the critical path");
        }
        String extra = about.isEmpty() ? "" : " (" + String.join("; ", about) + ")";
        off.addItem(n.thread + " " + share(n.ns, n.ofNs) + extra, n.ns);
        runQueueUnknown |= !n.runQueueKnown;
        anyOnPath |= path0 > 0;
      }
      StringBuilder b = named(off, " off the CPU for ", " that counts as execution here, in no");
      b.append(" recorded wait (");
      JvmCrossCheck.appendNamed(b, off.named);
      b.append("): I/O that Weft does not record (socket channels, files, pipes), sleeping")
          .append(" or waiting in native code, JVM pauses such as garbage collection, or other")
          .append(" waiting Weft does not record. The")
          .append(" system counted that time neither as CPU time nor as waiting for a core, so it")
          .append(" is not work, though ")
          .append(
              anyOnPath
                  ? "execution and the critical path, where it runs through them, count it as such"
                  : "execution counts it as such");
      if (runQueueUnknown) {
        b.append(" (for threads whose run queue the agent could not read, part of that time may")
            .append(" be waiting for a core on a busy host)");
      }
      notes.add(b.toString());
    }
    if (!f.queued.isEmpty()) {
      JvmCrossCheck.Excess queued = new JvmCrossCheck.Excess();
      for (Named n : f.queued) {
        queued.addItem(n.thread + " " + share(n.ns, n.ofNs), n.ns);
      }
      StringBuilder b = named(queued, " runnable but waiting for a core for ", "");
      b.append(" (");
      JvmCrossCheck.appendNamed(b, queued.named);
      b.append("): more threads were ready to run than the host had cores for (this program's")
          .append(" or other processes'). That time counts as execution, or as the wait a thread")
          .append(" was in, so both read longer than the program's own work and waits");
      notes.add(b.toString());
    }
    return notes;
  }

  /** "1 thread was" or "N threads were", then {@code what}, the total, and {@code after}. */
  private static StringBuilder named(JvmCrossCheck.Excess e, String what, String after) {
    int n = e.named.size();
    return new StringBuilder(n == 1 ? "1 thread was" : n + " threads were")
        .append(what)
        .append(TimeText.duration(e.total))
        .append(after);
  }

  /** "PART of WHOLE", as durations. */
  private static String share(long part, long whole) {
    return TimeText.duration(part) + " of " + TimeText.duration(whole);
  }
}
