package dev.weft.analysis;

import dev.weft.trace.Definitions;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.ThreadJvmCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Compares, per thread, what the JVM itself counted (the agent's THREAD_JVM_COUNTS record) with
 * what the trace records: monitor blocks here, waits in {@link #waitsNote}.
 *
 * <p>Monitor blocks: how often the JVM says the thread blocked entering a monitor (the agent's
 * THREAD_JVM_COUNTS record) with the monitor waits the trace records for it. More blocks than
 * recorded waits means monitors were contended in code the agent does not weave — inside JDK
 * classes ({@code Collections.synchronizedList}, {@code ConcurrentHashMap.compute}, class-loading
 * locks), excluded classes or families — and that waiting counts as execution in the analysis. The
 * analysis says so in a note instead of staying silent.
 *
 * <p>Recorded waits (what the JVM can have counted as blocks on recorded monitors): monitor
 * acquisitions that the trace shows another thread in the way of (holding the monitor at the
 * request, or releasing it while the request waited), or that waited at least {@link #MIN_WAIT_NS}
 * from request to acquisition, or were still waiting at the end, plus {@code Object.wait} exits
 * (the monitor is re-entered inside the wait, which may block) and two per {@code Thread.join} (it
 * waits on the thread's monitor, which the ending thread takes to notify: entering the join and
 * re-entering after the wait may each block). The JVM counts a block only when its first spin
 * failed and the thread entered the monitor's slow path, which can succeed at once and so last well
 * under a microsecond: on a woven monitor under heavy contention (4 threads) one run at load 10 had
 * 347 blocks against 180 waits of 1 µs or more, while at load 20 the JVM's blocks and the requests
 * with another thread in the way agreed within one per thread. A thread is reported when its JVM
 * count exceeds its recorded waits by more than {@link #SLACK} blocks: the agent's own definitions
 * (a thread's stream, a lock or region seen for the first time) are written under the trace
 * writer's lock, on which threads starting or meeting a lock at the same moment may block a few
 * times, and a thread whose window is full may block on its stream file while the background
 * preparer maps the next one. The comparison is of counts per thread, not per monitor: a thread's
 * recorded waits can hide as many unrecorded blocks of the same thread. Threads without a record
 * (older traces, virtual threads, threads that ended unseen) and threads whose events were dropped
 * or whose stream is damaged are not compared.
 */
final class JvmCrossCheck {
  /** A recorded monitor acquisition this long (request to acquisition) may have blocked. */
  static final long MIN_WAIT_NS = 1_000;

  /** Blocks per thread the JVM may count beyond the recorded waits without a note. */
  static final long SLACK = 3;

  /** Waits per thread the JVM may count beyond twice the recorded ones without a note. */
  static final long WAIT_SLACK = 10;

  /** Threads named in the note before "and N more". */
  private static final int NAMED = 4;

  private JvmCrossCheck() {}

  /**
   * The note, or null when every compared thread's blocks are accounted for.
   *
   * @param skip streams not to compare (dropped events, damaged stream)
   */
  static String note(Definitions defs, Replay replay, IntPredicate skip) {
    if (defs.jvmCounts().isEmpty()) {
      return null;
    }
    Excess blocks = new Excess();
    for (ThreadState th : replay.threads) {
      ThreadJvmCounts c = defs.jvmCounts(th.stream);
      if (c == null || skip.test(th.stream) || c.blockedCount() < 0) {
        continue;
      }
      long more = c.blockedCount() - th.monitorWaits;
      if (more > SLACK) {
        blocks.add(th.name, more);
      }
    }
    if (blocks.named.isEmpty()) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    b.append("the JVM counted ")
        .append(blocks.total)
        .append(blocks.total == 1 ? " monitor block" : " monitor blocks")
        .append(" on ")
        .append(blocks.named.size())
        .append(blocks.named.size() == 1 ? " thread" : " threads")
        .append(" that Weft did not record (");
    appendNamed(b, blocks.named);
    b.append(
            "): contended synchronized blocks or methods in code Weft does not weave (JDK classes,")
        .append(" excluded classes or construct families, class loading");
    if (AttachLimits.attached(defs)) {
      b.append("; when attached, also synchronized methods of classes loaded before the attach");
    }
    b.append("); their waiting counts as execution here");
    return b.toString();
  }

  /**
   * The note on waits the JVM counted that the trace does not show, or null. The JVM counts every
   * park, sleep and {@code Object.wait} of a thread ({@code ThreadInfo.getWaitedCount()}), and a
   * recorded wait may park more than once (a lock or condition woken to find the state unchanged
   * parks again), so a thread is reported only when the JVM's count exceeds twice its recorded
   * waits ({@link ThreadState#parkableWaits}) by more than {@link #WAIT_SLACK}. Such waits are in
   * code Weft does not weave: a JDK class's own waiting that no construct family covers, excluded
   * classes or families, a synchronizer of a kind Weft does not know. Pool workers are not
   * compared: they wait for tasks inside the pool's JDK code, which their idle time already shows.
   *
   * @param skip streams not to compare (dropped events, damaged stream)
   */
  static String waitsNote(Definitions defs, Replay replay, IntPredicate skip) {
    if (defs.jvmCounts().isEmpty()) {
      return null;
    }
    Excess waits = new Excess();
    for (ThreadState th : replay.threads) {
      ThreadJvmCounts c = defs.jvmCounts(th.stream);
      if (c == null || skip.test(th.stream) || c.waitedCount() < 0 || th.worker() || th.carrier) {
        continue;
      }
      // At least this many of the JVM's waits are none of the recorded ones (two parks each).
      long more = c.waitedCount() - 2 * th.parkableWaits;
      if (more > WAIT_SLACK) {
        waits.add(th.name, more);
      }
    }
    if (waits.named.isEmpty()) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    b.append("the JVM counted at least ")
        .append(waits.total)
        .append(waits.total == 1 ? " wait" : " waits")
        .append(" (parks, sleeps, Object.wait) on ")
        .append(waits.named.size())
        .append(waits.named.size() == 1 ? " thread" : " threads")
        .append(" that Weft did not record (");
    appendNamed(b, waits.named);
    b.append("): waiting in code Weft does not weave (a JDK class's own waiting that no construct")
        .append(" family covers, excluded classes or construct families, a synchronizer of a")
        .append(" kind Weft does not know");
    if (AttachLimits.attached(defs)) {
      b.append("; when attached, also code that was running at the attach");
    }
    b.append("); that waiting counts as execution here");
    return b.toString();
  }

  /**
   * The note naming the platform threads with events but without the JVM's counts, in a trace whose
   * agent counted (others have a record); null when there are none. Such a thread ended where the
   * agent could not count it: its {@code run()} was not hooked (it began before an attach, or a
   * pool worker retired unseen), or it ended before the counts' baseline. Its blocks in code Weft
   * does not weave are then unknown, and saying nothing would read as "none".
   *
   * @param skip streams not to name (dropped events, damaged stream: said elsewhere)
   */
  static String uncheckedNote(Definitions defs, Replay replay, IntPredicate skip) {
    if (defs.jvmCounts().isEmpty() || replay.counters.measurementOff > 0) {
      return null; // nothing counted, or counting stopped with the measurement: said elsewhere
    }
    List<String> names = new ArrayList<>();
    for (ThreadState th : replay.threads) {
      ThreadDef d = defs.thread(th.stream);
      if (th.events == 0
          || th.carrier
          || skip.test(th.stream)
          || defs.jvmCounts(th.stream) != null
          || d == null
          || d.isVirtual()
          || d.isSupplement()) {
        continue;
      }
      names.add(th.name);
    }
    if (names.isEmpty()) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    b.append(names.size())
        .append(names.size() == 1 ? " thread was" : " threads were")
        .append(" not cross-checked with the JVM's own monitor counts (");
    appendNamed(b, names);
    b.append("): they ended where the agent could not count them (")
        .append(AttachLimits.attached(defs) ? "a run() that began before the attach, " : "")
        .append("a pool worker retiring, or before the counts were available); monitor blocks")
        .append(" of theirs in code Weft does not weave are not known");
    return b.toString();
  }

  /** Threads with more counted than recorded, as "name excess", the largest excess first. */
  static final class Excess {
    final List<String> named = new ArrayList<>();
    private final List<Long> excess = new ArrayList<>();
    long total;

    void add(String thread, long more) {
      addItem(thread + " " + more, more);
    }

    /** Names {@code item} by its excess {@code more}: the largest first. */
    void addItem(String item, long more) {
      int at = 0;
      while (at < excess.size() && excess.get(at) >= more) {
        at++;
      }
      named.add(at, item);
      excess.add(at, more);
      total += more;
    }
  }

  /** The first {@link #NAMED} of {@code items}, comma-separated, then "and N more". */
  static void appendNamed(StringBuilder b, List<String> items) {
    for (int i = 0; i < items.size() && i < NAMED; i++) {
      b.append(i == 0 ? "" : ", ").append(items.get(i));
    }
    if (items.size() > NAMED) {
      b.append(" and ").append(items.size() - NAMED).append(" more");
    }
  }
}
