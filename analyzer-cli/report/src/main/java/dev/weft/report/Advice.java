package dev.weft.report;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.AnalysisResult.PropertyResult;
import dev.weft.analysis.AnalysisResult.RegionResult;
import dev.weft.analysis.AnalysisResult.ThreadSeverity;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.PropertyRegistry;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The "what to do" line of a finding, built from what was found (where, on which threads, split
 * into which causes, the shape of the imbalance) rather than one fixed sentence per property. The
 * property's general diagnosis follows when nothing more specific can be said.
 */
final class Advice {
  private Advice() {}

  /** The advice for property {@code p} of {@code r}. */
  static String of(PropertyResult p, AnalysisResult r) {
    PropertyInfo info = PropertyRegistry.info(p.id());
    String general = info == null ? "" : TextReport.plain(info.diagnosis());
    String site = site(p);
    String specific =
        switch (p.id()) {
          case "barrier_wait" -> barrier(p, r, site);
          case "lock_contention", "monitor_contention", "lock_api_contention" -> lock(p, site);
          case "join_wait" -> join(p, site);
          case "work_imbalance" -> imbalance(r);
          case "condition_wait" -> condition(p, site);
          case "idle_threads" -> idleCarriers(p, r);
          default -> null;
        };
    return specific == null ? general : specific;
  }

  /**
   * Idle threads that are all carriers of virtual threads (they ran some, carrier_utilisation): no
   * virtual thread was ready to run, which the pool-worker advice (the master-only pattern) does
   * not fit.
   */
  private static String idleCarriers(PropertyResult p, AnalysisResult r) {
    PropertyResult carriers = r.property("carrier_utilisation");
    if (carriers == null || p.byThread().isEmpty()) {
      return null;
    }
    Set<String> names = new HashSet<>();
    for (ThreadSeverity t : carriers.byThread()) {
      names.add(t.thread());
    }
    for (ThreadSeverity t : p.byThread()) {
      if (!names.contains(t.thread())) {
        return null;
      }
    }
    return "The idle threads are carriers of virtual threads: no virtual thread was ready to run"
        + " then: the virtual threads were waiting (see their waits) or there were none. More"
        + " carriers would not help.";
  }

  private static String barrier(PropertyResult p, AnalysisResult r, String site) {
    long forLast = cause(p, "waiting_for_last_ns");
    long latency = cause(p, "release_latency_ns");
    if (forLast + latency == 0) {
      return null;
    }
    double share = (double) forLast / (forLast + latency);
    if (share < 0.5) {
      return String.format(
          Locale.ROOT,
          "%s of the wait at %s comes after the last arrival (release latency): threads are slow to"
              + " resume, not unevenly loaded. Use fewer threads than cores, or fewer barriers.",
          pct(1 - share),
          site);
    }
    ThreadSeverity top = p.byThread().isEmpty() ? null : p.byThread().get(0);
    RegionResult g = region(r, site);
    String busiest = g == null ? null : busiest(g);
    boolean latch = site.startsWith("CountDownLatch.");
    boolean alone =
        top != null
            && (p.byThread().size() == 1
                || top.thread().equals(busiest) && top.severityNs() >= 0.9 * p.exclusiveNs());
    if (top != null && (latch || alone)) {
      // A latch's awaiters wait for the count-downs of the threads that do the work (RxJava's and
      // Reactor's blocking calls), and a lone waiter (the only one, or nearly all of the wait while
      // itself the busiest) has no one to take work from: what it waits for is the others' work.
      return String.format(
          Locale.ROOT,
          "%s of the wait at %s is %s waiting for other threads to arrive (or count down): it waits"
              + " for their work, as a join would. Shorten that work (see the critical path) or"
              + " give %s something to do meanwhile.",
          pct(share),
          site,
          top.thread(),
          top.thread());
    }
    StringBuilder s =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%s of the wait at %s is waiting for the last arrival: the threads reach it with"
                    + " unequal work. ",
                pct(share),
                site));
    String shape = shape(p.byThread());
    if (shape.equals("even")) {
      s.append(
          "Every thread waits about as long as the others, so the last one to arrive changes"
              + " from round to round: even out the work of each round (every round's work, not"
              + " only the totals per thread).");
    } else {
      s.append(top.thread())
          .append(" waits most (")
          .append(pct((double) top.severityNs() / Math.max(1, p.exclusiveNs())))
          .append("): it has the least work before the barrier; ");
      if (busiest != null) {
        s.append("the busiest is ").append(busiest).append(". ");
      }
      s.append("Move work from the busiest threads to it, or split the work by its cost.");
    }
    return s.toString();
  }

  private static String lock(PropertyResult p, String site) {
    long holder = cause(p, "waiting_for_holder_ns");
    long handoff = cause(p, "handoff_latency_ns");
    int threads = p.byThread().size();
    if (holder + handoff == 0) {
      return null;
    }
    double share = (double) holder / (holder + handoff);
    if (share >= 0.5) {
      return String.format(
          Locale.ROOT,
          "%d thread%s wait for the lock at %s, %s of it while another thread holds it: the"
              + " critical section is long or the lock is hot. Shorten the section, split the lock,"
              + " or use a concurrent structure.",
          threads,
          threads == 1 ? "" : "s",
          site,
          pct(share));
    }
    return String.format(
        Locale.ROOT,
        "%s of the wait for the lock at %s is hand-off after the release: the next thread wakes up"
            + " slowly. Spin briefly before blocking, or use fewer threads.",
        pct(1 - share),
        site);
  }

  private static String join(PropertyResult p, String site) {
    if (p.byThread().isEmpty()) {
      return null;
    }
    ThreadSeverity top = p.byThread().get(0);
    return String.format(
        Locale.ROOT,
        "%s waits at %s (%s of the join wait) while forked work runs elsewhere: give it a share of"
            + " the work, or split the work into more even parts.",
        top.thread(),
        site,
        pct((double) top.severityNs() / Math.max(1, p.exclusiveNs())));
  }

  private static String condition(PropertyResult p, String site) {
    Map<String, Long> causes = p.causes();
    String kind = null;
    long most = -1;
    if (causes != null) {
      for (Map.Entry<String, Long> e : causes.entrySet()) {
        if (e.getValue() > most) {
          most = e.getValue();
          kind = e.getKey();
        }
      }
    }
    return String.format(
        Locale.ROOT,
        "Threads wait to be signalled at %s%s: the threads that signal them (producers, a"
            + " coordinator) are slower than the waiting ones, or signal late. Balance them, or hand"
            + " work over in bigger batches.",
        site,
        kind == null ? "" : " (mostly " + kind.replaceAll("_ns$", "") + ")");
  }

  private static String imbalance(AnalysisResult r) {
    if (r.regions().isEmpty()) {
      return null;
    }
    RegionResult g = r.regions().get(0);
    String busiest = busiest(g);
    return String.format(
        Locale.ROOT,
        "Most is lost in %s @ %s (load-balance index %.2f)%s. Move work from the busiest threads"
            + " to the others, use smaller chunks, or let idle threads steal work.",
        g.name(),
        g.location(),
        g.imbalance(),
        busiest == null ? "" : ", where " + busiest + " is the busiest");
  }

  /** {@code even} when no thread holds much more than its share, else {@code skewed}. */
  private static String shape(List<ThreadSeverity> threads) {
    if (threads.size() < 2) {
      return "skewed";
    }
    long sum = 0;
    for (ThreadSeverity t : threads) {
      sum += t.severityNs();
    }
    double mean = (double) sum / threads.size();
    return threads.get(0).severityNs() <= 1.5 * mean ? "even" : "skewed";
  }

  private static String busiest(RegionResult g) {
    String name = null;
    long max = -1;
    for (Map.Entry<String, Long> e : g.busyNsByThread().entrySet()) {
      if (e.getValue() > max) {
        max = e.getValue();
        name = e.getKey();
      }
    }
    return name;
  }

  /** The region (barrier or parallel region) whose location is the call site {@code site}. */
  private static RegionResult region(AnalysisResult r, String site) {
    for (RegionResult g : r.regions()) {
      if (!g.location().isEmpty() && site.endsWith("@ " + g.location())) {
        return g;
      }
    }
    return null;
  }

  /** The innermost frame of the heaviest call path. */
  private static String site(PropertyResult p) {
    if (p.byCallpath().isEmpty() || p.byCallpath().get(0).path().isEmpty()) {
      return "(outside traced regions)";
    }
    List<String> path = p.byCallpath().get(0).path();
    return path.get(path.size() - 1);
  }

  private static long cause(PropertyResult p, String key) {
    Map<String, Long> c = p.causes();
    Long v = c == null ? null : c.get(key);
    return v == null ? 0 : v;
  }

  private static String pct(double share) {
    return String.format(Locale.ROOT, "%.0f %%", 100 * share);
  }
}
