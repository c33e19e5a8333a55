package dev.weft.report;

import dev.weft.analysis.AnalysisResult;
import dev.weft.analysis.AnalysisResult.CallPathSeverity;
import dev.weft.analysis.AnalysisResult.PropertyResult;
import dev.weft.analysis.AnalysisResult.RegionResult;
import dev.weft.analysis.AnalysisResult.ThreadSeverity;
import dev.weft.analysis.CallPathTree;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.PropertyRegistry;
import dev.weft.analysis.Results;
import dev.weft.analysis.TimeText;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The terminal report: the property tree with inclusive percentages of total CPU allocation time
 * (as CUBE shows collapsed nodes), then the worst properties with their call-path tree, thread
 * distribution, causes and explanation, then the most imbalanced regions, then the notes.
 */
public final class TextReport {
  /** Width of a report written to a file, and the default. */
  public static final int DEFAULT_WIDTH = 100;

  /** Narrowest and widest text the layout supports; other widths are clamped to these. */
  public static final int MIN_WIDTH = 60;

  public static final int MAX_WIDTH = 200;

  private static final int WORST = 3;
  private static final int MAX_THREADS = 8;
  private static final int MAX_CHILDREN = 6;
  private static final int MAX_REGIONS = 5;

  private final int width;

  private TextReport(int width) {
    this.width = Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, width));
  }

  /** The report for {@code r}, {@value #DEFAULT_WIDTH} columns wide. */
  public static String render(AnalysisResult r) {
    return render(r, DEFAULT_WIDTH);
  }

  /**
   * The report for {@code r} with lines of at most {@code width} characters ({@value #MIN_WIDTH} to
   * {@value #MAX_WIDTH}; other widths are clamped). Long names and call paths wrap onto indented
   * continuation lines; nothing is cut off.
   */
  public static String render(AnalysisResult r, int width) {
    return new TextReport(width).build(r);
  }

  private String build(AnalysisResult r) {
    StringBuilder b = new StringBuilder();
    header(b, r);
    tree(b, r);
    worst(b, r);
    delayCosts(b, r);
    criticalPath(b, r);
    latencies(b, r);
    timelines(b, r);
    regions(b, r);
    notes(b, r);
    return b.toString();
  }

  private void header(StringBuilder b, AnalysisResult r) {
    AnalysisResult.TraceInfo t = r.trace();
    wrap(b, "", "Weft wait-state analysis of " + t.path());
    wrap(
        b,
        "  ",
        String.format(
            Locale.ROOT,
            "window %s, %d threads, %,d events%s, %s",
            duration(t.durationNs()),
            t.threads(),
            t.events(),
            t.dropped() > 0 ? String.format(Locale.ROOT, " (%,d dropped)", t.dropped()) : "",
            r.status() == AnalysisResult.Status.COMPLETE
                ? "complete"
                : r.status().id().toUpperCase(Locale.ROOT) + " (see below and the notes)"));
    if (r.status() != AnalysisResult.Status.COMPLETE) {
      wrap(
          b,
          "  " + r.status().id().toUpperCase(Locale.ROOT) + ": ",
          r.statusDetail() != null ? r.statusDetail() : "(no detail given)");
    }
    if (t.notSeenWhenAttached() != null) {
      wrap(
          b,
          "  ATTACHED: ",
          "the agent was loaded into the running program; this recording could not see: "
              + String.join("; ", t.notSeenWhenAttached()));
    }
    wrap(
        b,
        "  ",
        "total CPU allocation time "
            + duration(r.timeNs())
            + " (the sum of the threads' lifetimes; percentages below are of it)");
    b.append('\n');
  }

  private void tree(StringBuilder b, AnalysisResult r) {
    b.append("Properties (inclusive)\n");
    int longest = 0;
    for (PropertyResult p : r.properties()) {
      longest = Math.max(longest, 2 * (depth(r, p) + 1) + p.id().length());
    }
    int labelW = Math.max(labelWidth(), Math.min(42, longest));
    for (PropertyResult p : r.properties()) {
      String label = "  ".repeat(depth(r, p) + 1) + p.id();
      String figures =
          p.threadTime()
              ? String.format(Locale.ROOT, " %12s %8.2f%%  ", duration(p.severityNs()), p.percent())
              : String.format(Locale.ROOT, " %12s %9s  ", duration(p.severityNs()), "");
      String name =
          p.threadTime()
              ? p.name()
              : p.name()
                  + (p.timeline() != null
                      ? " (carrier time, not a share of CPU time; see below)"
                      : " (task time, not a share of CPU time; see below)");
      if (width - labelW - figures.length() >= 16) {
        nameRow(b, "", label, labelW, figures, name);
      } else {
        // Too narrow for a name column: the name goes under the id.
        nameRow(b, "", label, labelW, figures, "");
        wrap(b, " ".repeat(label.length() - p.id().length() + 2), name);
      }
    }
    b.append('\n');
  }

  /** Width of the property-id column: 42 at 100 columns and more, narrower below. */
  private int labelWidth() {
    return Math.max(18, Math.min(42, width - 58));
  }

  private static int depth(AnalysisResult r, PropertyResult p) {
    int d = 0;
    // Bounded: a document read back from a file may have a cycle of parents.
    for (String parent = p.parent(); parent != null && d < r.properties().size(); d++) {
      PropertyResult q = r.property(parent);
      parent = q == null ? null : q.parent();
    }
    return d;
  }

  private static boolean readyForWork(String id) {
    PropertyInfo info = PropertyRegistry.info(id);
    return info != null && info.readyForWork();
  }

  private void worst(StringBuilder b, AnalysisResult r) {
    List<PropertyResult> candidates = new ArrayList<>();
    for (PropertyResult p : r.properties()) {
      if (!p.id().equals("time")
          && !p.id().equals("execution")
          && p.threadTime()
          && !isDelayCost(r, p)
          && p.exclusiveNs() > 0) {
        candidates.add(p);
      }
    }
    // Threads ready for work that had not come (an idle event loop or pool worker) are not a
    // problem in themselves: they rank after every wait that holds work up.
    candidates.sort(
        Comparator.comparing((PropertyResult p) -> readyForWork(p.id()))
            .thenComparing(Comparator.comparingLong(PropertyResult::exclusiveNs).reversed()));
    if (candidates.isEmpty()) {
      b.append("No wait states found.\n\n");
      return;
    }
    b.append("Worst properties\n");
    for (PropertyResult p : candidates.subList(0, Math.min(WORST, candidates.size()))) {
      PropertyInfo info = PropertyRegistry.info(p.id());
      wrap(
          b,
          "== ",
          String.format(
              Locale.ROOT,
              "%s  %s (%s of time)",
              p.id(),
              duration(p.exclusiveNs()),
              pct(p.exclusiveNs(), r.timeNs())));
      if (info != null) {
        wrap(b, "   ", plain(info.info()));
      }
      if (p.causes() != null && !p.causes().isEmpty()) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Long> e : p.causes().entrySet()) {
          parts.add(e.getKey().replaceAll("_ns$", "") + " " + duration(e.getValue()));
        }
        wrap(b, "   ", "causes: " + String.join(", ", parts));
      }
      b.append("   call paths (exclusive, inclusive along the call tree):\n");
      callTree(b, p, r.timeNs());
      b.append("   threads:\n");
      List<ThreadSeverity> threads = p.byThread();
      int column =
          threadColumn(
              threads.subList(0, Math.min(MAX_THREADS, threads.size())).stream()
                  .map(ThreadSeverity::thread)
                  .toList());
      int shown = 0;
      for (ThreadSeverity t : threads) {
        if (shown++ == MAX_THREADS) {
          b.append(String.format(Locale.ROOT, "     ... %d more%n", threads.size() - MAX_THREADS));
          break;
        }
        threadRow(b, column, t.thread(), duration(t.severityNs()), pct(t.severityNs(), r.timeNs()));
      }
      wrap(b, "   ", "what to do: " + Advice.of(p, r));
      b.append('\n');
    }
  }

  /** Delay costs are the causes of waits already ranked above: reported apart, not ranked. */
  private static boolean isDelayCost(AnalysisResult r, PropertyResult p) {
    for (PropertyResult q = p; q != null; q = q.parent() == null ? null : r.property(q.parent())) {
      if (q.id().equals("delay_cost")) {
        return true;
      }
      if (q.parent() != null && q.parent().equals(q.id())) {
        return false;
      }
    }
    return false;
  }

  /** Who caused the waits: each delay-cost property's threads and call paths. */
  private void delayCosts(StringBuilder b, AnalysisResult r) {
    boolean header = false;
    for (PropertyResult p : r.properties()) {
      if (p.id().equals("delay_cost") || !isDelayCost(r, p) || p.exclusiveNs() <= 0) {
        continue;
      }
      if (!header) {
        wrap(
            b,
            "",
            "Delay costs (waits charged to the thread and call path whose work caused them)");
        header = true;
      }
      // At least MAX_THREADS causers, and beyond them those above 1 %: a program of thousands of
      // short threads (virtual threads) would otherwise list every one of them.
      List<String> threads = new ArrayList<>();
      for (ThreadSeverity t : p.byThread()) {
        if (threads.size() >= MAX_THREADS && t.severityNs() * 100 <= p.exclusiveNs()) {
          break;
        }
        threads.add(t.thread() + " " + duration(t.severityNs()));
      }
      int more = p.byThread().size() - threads.size();
      if (more > 0) {
        threads.add("... " + more + " more (each ≤ 1 %)");
      }
      wrap(
          b,
          "   ",
          p.name()
              + " "
              + duration(p.exclusiveNs())
              + ", caused by: "
              + String.join(", ", threads));
      int shown = 0;
      for (CallPathSeverity c : p.byCallpath()) {
        if (shown++ >= MAX_CHILDREN && c.severityNs() * 100 <= p.exclusiveNs()) {
          break;
        }
        wrap(
            b,
            String.format(Locale.ROOT, "     %12s  ", duration(c.severityNs())),
            foldedLabel(c.path()));
      }
    }
    if (header) {
      b.append('\n');
    }
  }

  /** The critical path: its length, threads and call paths, with what balancing each would save. */
  private void criticalPath(StringBuilder b, AnalysisResult r) {
    AnalysisResult.CriticalPath cp = r.criticalPath();
    if (cp == null || cp.lengthNs() <= 0) {
      return;
    }
    long run = r.trace().durationNs();
    wrap(
        b,
        "",
        String.format(
            Locale.ROOT,
            "Critical path  %s (%s of the run's %s): the longest chain of work through the"
                + " hand-overs between threads",
            duration(cp.lengthNs()),
            pct(cp.lengthNs(), run),
            duration(run)));
    b.append("   threads (time on the path):\n");
    List<AnalysisResult.CriticalThread> rows = new ArrayList<>();
    for (AnalysisResult.CriticalThread t : cp.byThread()) {
      if (rows.size() >= MAX_THREADS && t.ns() * 100 <= cp.lengthNs()) {
        break;
      }
      rows.add(t);
    }
    int column = threadColumn(rows.stream().map(AnalysisResult.CriticalThread::thread).toList());
    for (AnalysisResult.CriticalThread t : rows) {
      threadRow(b, column, t.thread(), duration(t.ns()), pct(t.ns(), cp.lengthNs()));
    }
    wrap(
        b,
        "   ",
        "call paths (time on the path; what if balanced: how much shorter the path gets)");
    int shown = 0;
    int hidden = 0;
    for (AnalysisResult.CriticalCallPath c : cp.byCallpath()) {
      if (shown >= MAX_CHILDREN && c.ns() * 100 <= cp.lengthNs()) {
        hidden++;
        continue;
      }
      shown++;
      wrap(
          b,
          String.format(
              Locale.ROOT,
              "     %12s %8s  what if balanced %10s  ",
              duration(c.ns()),
              pct(c.ns(), cp.lengthNs()),
              c.whatIfNs() > 0 ? "-" + duration(c.whatIfNs()) : "0 ns"),
          foldedLabel(c.path()));
    }
    if (hidden > 0) {
      b.append(
          String.format(
              Locale.ROOT, "     ... %d smaller call paths (each ≤ 1 %% of the path)%n", hidden));
    }
    b.append('\n');
  }

  /** Busy shares over time ({@code 0} idle … {@code @} busy), one row per thread, per property. */
  private void timelines(StringBuilder b, AnalysisResult r) {
    String ramp = " .:-=+*#%@";
    for (PropertyResult p : r.properties()) {
      AnalysisResult.Timeline t = p.timeline();
      if (t == null || t.rows().isEmpty()) {
        continue;
      }
      wrap(
          b,
          "",
          p.name()
              + " over time ("
              + t.rows().get(0).share().size()
              + " buckets of "
              + duration(t.bucketNs())
              + "; ' ' idle to '@' busy)");
      wrap(b, "   ", t.summary());
      int labelW = Math.max(8, Math.min(32, width - 40));
      int shown = 0;
      for (AnalysisResult.TimelineRow row : t.rows()) {
        if (shown++ == MAX_THREADS) {
          b.append(String.format(Locale.ROOT, "     ... %d more%n", t.rows().size() - MAX_THREADS));
          break;
        }
        StringBuilder bar = new StringBuilder("|");
        for (double share : row.share()) {
          int level = (int) Math.round(Math.max(0, Math.min(1, share)) * (ramp.length() - 1));
          bar.append(ramp.charAt(level));
        }
        bar.append(String.format(Locale.ROOT, "| %5.1f %%", 100 * row.total()));
        nameRow(b, "     ", row.thread(), labelW, " " + bar, "");
      }
      b.append('\n');
    }
  }

  /** Task-time properties: per-task latency per pool and per creation call path. */
  private void latencies(StringBuilder b, AnalysisResult r) {
    for (PropertyResult p : r.properties()) {
      AnalysisResult.Latency l = p.latency();
      if (p.threadTime() || l == null || l.all().tasks() == 0) {
        continue;
      }
      wrap(b, "", p.name() + " (task latency, submission to start; not thread time)");
      int labelW = Math.max(0, Math.min(52, width - 6 - LATENCY_HEADER.length()));
      nameRow(b, "     ", "", labelW, " " + LATENCY_HEADER, "");
      nameRow(b, "     ", "all tasks", labelW, " " + latencyRow(l.all().tasks(), l.all()), "");
      for (AnalysisResult.PoolLatency pl : l.byPool()) {
        nameRow(
            b,
            "     ",
            "pool " + pl.pool(),
            labelW,
            " "
                + latencyRow(
                    pl.tasks(),
                    new AnalysisResult.LatencyFigures(
                        pl.tasks(), pl.meanNs(), pl.p95Ns(), pl.maxNs())),
            "");
      }
      long total = Math.max(1, p.severityNs());
      List<AnalysisResult.PathLatency> rows = new ArrayList<>();
      int hidden = 0;
      for (AnalysisResult.PathLatency pl : l.byCallpath()) {
        if (rows.size() >= MAX_CHILDREN && pl.totalNs() * 100 <= total) {
          hidden++;
          continue;
        }
        rows.add(pl);
      }
      List<String> paths =
          distinctLabels(
              rows.stream().map(AnalysisResult.PathLatency::path).toList(),
              rows.stream().map(AnalysisResult.PathLatency::pool).toList());
      for (int i = 0; i < rows.size(); i++) {
        AnalysisResult.PathLatency pl = rows.get(i);
        String label = "created at " + paths.get(i) + " (" + pl.pool() + ")";
        nameRow(
            b,
            "     ",
            label,
            labelW,
            " "
                + latencyRow(
                    pl.tasks(),
                    new AnalysisResult.LatencyFigures(
                        pl.tasks(), pl.meanNs(), pl.p95Ns(), pl.maxNs())),
            "");
      }
      if (hidden > 0) {
        b.append(
            String.format(
                Locale.ROOT,
                "     ... %d smaller call paths (each ≤ 1 %% of the total)%n",
                hidden));
      }
      b.append('\n');
    }
  }

  private static final String LATENCY_HEADER =
      String.format(Locale.ROOT, "%9s %10s %10s %10s", "tasks", "mean", "p95", "max");

  private static String latencyRow(long tasks, AnalysisResult.LatencyFigures f) {
    return String.format(
        Locale.ROOT,
        "%,9d %10s %10s %10s",
        tasks,
        duration(f.meanNs()),
        duration(f.p95Ns()),
        duration(f.maxNs()));
  }

  /** The innermost frames of a call path, recursion folded, for one line. */
  static String foldedLabel(List<String> path) {
    return foldedLabel(path, 2);
  }

  /**
   * {@link #foldedLabel}s of {@code paths}, each with as many more frames as it takes for rows of
   * the same {@code key} (a pool) not to read alike: two paths that end in the same two frames
   * would otherwise print as one.
   */
  static List<String> distinctLabels(List<List<String>> paths, List<String> keys) {
    int[] depth = new int[paths.size()];
    Arrays.fill(depth, 2);
    List<String> labels = new ArrayList<>();
    for (List<String> path : paths) {
      labels.add(foldedLabel(path, 2));
    }
    for (boolean again = true; again; ) {
      again = false;
      Map<String, Integer> first = new HashMap<>();
      for (int i = 0; i < labels.size(); i++) {
        String key = keys.get(i) + "\n" + labels.get(i);
        Integer j = first.putIfAbsent(key, i);
        if (j != null) {
          again |= deepen(paths, depth, labels, i) | deepen(paths, depth, labels, j);
        }
      }
    }
    return labels;
  }

  /** Shows one more frame of path {@code i}, if it has one; whether it had. */
  private static boolean deepen(List<List<String>> paths, int[] depth, List<String> labels, int i) {
    String more = foldedLabel(paths.get(i), depth[i] + 1);
    if (more.equals(labels.get(i))) {
      return false;
    }
    depth[i]++;
    labels.set(i, more);
    return true;
  }

  /** The innermost {@code frames} frames of a call path, recursion folded, for one line. */
  private static String foldedLabel(List<String> path, int frames) {
    if (path.isEmpty()) {
      return "(outside traced regions)";
    }
    List<CallPathFolding.Frame> folded = CallPathFolding.fold(path);
    int from = Math.max(0, folded.size() - frames);
    List<String> labels = new ArrayList<>();
    for (CallPathFolding.Frame f : folded.subList(from, folded.size())) {
      labels.add(f.label());
    }
    return (from > 0 ? "… › " : "") + String.join(" › ", labels);
  }

  /** A call-path trie built from the property's exclusive values per path. */
  private static final class Node {
    final String label;
    final Map<String, Node> children = new LinkedHashMap<>();
    long inclusive;
    int minLevels = Integer.MAX_VALUE;
    int maxLevels;

    Node(String label) {
      this.label = label;
    }

    String shown() {
      if (maxLevels <= 1) {
        return label;
      }
      return label
          + (minLevels == maxLevels
              ? " ×" + maxLevels + " levels"
              : " ×" + minLevels + "–" + maxLevels + " levels");
    }
  }

  private void callTree(StringBuilder b, PropertyResult p, long time) {
    Node root = new Node("(outside traced regions)");
    for (CallPathSeverity c : p.byCallpath()) {
      Node n = root;
      n.inclusive += c.severityNs();
      for (CallPathFolding.Frame f : CallPathFolding.fold(c.path())) {
        n = n.children.computeIfAbsent(f.key(), k -> new Node(f.block()));
        n.inclusive += c.severityNs();
        n.minLevels = Math.min(n.minLevels, f.levels());
        n.maxLevels = Math.max(n.maxLevels, f.levels());
      }
    }
    long total = root.inclusive;
    if (root.children.size() == 1 && sumChildren(root) == total) {
      for (Node child : root.children.values()) {
        printNode(b, child, 0, total, time);
      }
    } else {
      printNode(b, root, 0, total, time);
    }
  }

  private static long sumChildren(Node n) {
    long s = 0;
    for (Node c : n.children.values()) {
      s += c.inclusive;
    }
    return s;
  }

  /**
   * Prints {@code n} and its larger descendants, depth first. Iterative: a call path read back from
   * a JSON file may be arbitrarily deep.
   */
  private void printNode(StringBuilder b, Node n, int depth, long total, long time) {
    Deque<Object[]> stack = new ArrayDeque<>();
    stack.push(new Object[] {n, depth});
    while (!stack.isEmpty()) {
      Object[] item = stack.pop();
      int d = (Integer) item[1];
      if (item[0] instanceof String more) {
        wrap(b, String.format(Locale.ROOT, "     %8s %s", "", treeIndent(d)), more);
        continue;
      }
      Node node = (Node) item[0];
      if (d > CallPathTree.MAX_DEPTH) {
        b.append(String.format(Locale.ROOT, "     %8s %s%n", "", "... deeper levels not shown"));
        continue;
      }
      wrap(
          b,
          String.format(Locale.ROOT, "     %8s %s", pct(node.inclusive, time), treeIndent(d)),
          node.shown());
      List<Node> kids = new ArrayList<>(node.children.values());
      kids.sort(Comparator.comparingLong((Node k) -> k.inclusive).reversed());
      List<Object[]> next = new ArrayList<>();
      int shown = 0;
      // Never hides a path holding more than 1 % of the property; beyond the first few, smaller
      // ones are summarised.
      for (Node k : kids) {
        if (k.inclusive * 100 <= total && (shown == MAX_CHILDREN || k.inclusive * 1000 < total)) {
          next.add(
              new Object[] {
                "... " + (kids.size() - shown) + " smaller (each ≤ 1 % of the property)", d + 1
              });
          break;
        }
        shown++;
        next.add(new Object[] {k, d + 1});
      }
      for (int i = next.size() - 1; i >= 0; i--) {
        stack.push(next.get(i));
      }
    }
  }

  /**
   * The regions that lost most (sorted so by the analysis). One that lost nothing is not shown,
   * whatever its summed busy times: time is lost per instance, and members busy in different
   * instances (each counting a latch down once) waited for nobody.
   */
  private void regions(StringBuilder b, AnalysisResult r) {
    if (r.regions().isEmpty() || r.regions().get(0).lostNs() <= 0) {
      return;
    }
    wrap(b, "", "Most imbalanced regions (time lost = sum over the team of max busy - own busy)");
    int shown = 0;
    for (RegionResult g : r.regions()) {
      if (shown++ == MAX_REGIONS || g.lostNs() <= 0) {
        break;
      }
      wrap(
          b,
          "  ",
          String.format(
              Locale.ROOT,
              "%s @ %s: instances %,d, imbalance (max-mean)/mean %.3f, lost %s (%s of time)",
              g.name(),
              g.location(),
              g.instances(),
              g.imbalance(),
              duration(g.lostNs()),
              pct(g.lostNs(), r.timeNs())));
      List<String> busy = new ArrayList<>();
      g.busyNsByThread().forEach((t, ns) -> busy.add(t + " " + duration(ns)));
      wrap(b, "     ", "busy: " + String.join(", ", busy));
    }
    b.append('\n');
  }

  private void notes(StringBuilder b, AnalysisResult r) {
    if (r.notes().isEmpty()) {
      return;
    }
    b.append("Notes\n");
    for (String n : r.notes()) {
      wrap(b, "  - ", n);
    }
  }

  /** Property text without {@code [[id]]} link markers. */
  static String plain(String text) {
    return text.replaceAll("\\[\\[([a-z_]+)]]", "$1");
  }

  /**
   * Indentation of a call-tree level: two spaces a level, at most enough to leave 24 columns for
   * the frame.
   */
  private String treeIndent(int depth) {
    return " ".repeat(Math.max(0, Math.min(2 * depth, width - 14 - 24)));
  }

  /** A thread's row's figures after its name: time and share. */
  private static final String THREAD_FIGURES = " %12s %8s";

  private static final int THREAD_FIGURES_WIDTH =
      String.format(Locale.ROOT, THREAD_FIGURES, "", "").length();

  /**
   * The name column of a list of threads' rows: 30, or the longest name's length when that still
   * leaves the figures room on the line, so that the figures of every row line up.
   */
  private int threadColumn(List<String> names) {
    int longest = 30;
    for (String n : names) {
      longest = Math.max(longest, n.length());
    }
    return Math.min(longest, Math.max(30, width - 5 - THREAD_FIGURES_WIDTH));
  }

  /** A thread's row: name, time and share; a long name gets a line of its own. */
  private void threadRow(StringBuilder b, int column, String thread, String ns, String share) {
    nameRow(b, "     ", thread, column, String.format(Locale.ROOT, THREAD_FIGURES, ns, share), "");
  }

  /**
   * A row of {@code indent}, {@code name} padded to {@code nameWidth}, {@code figures}, then {@code
   * rest} wrapped. A name that does not fit its column (or leaves no room for the figures) is
   * wrapped on lines of its own and the figures follow under the padded column.
   */
  private void nameRow(
      StringBuilder b, String indent, String name, int nameWidth, String figures, String rest) {
    String padded;
    if (name.length() <= nameWidth) {
      padded = name + " ".repeat(nameWidth - name.length());
    } else if (indent.length() + name.length() + figures.length() <= width) {
      padded = name;
    } else {
      wrap(b, indent, name);
      padded = " ".repeat(nameWidth);
    }
    String head = indent + padded + figures;
    if (rest.isEmpty()) {
      b.append(head.stripTrailing()).append('\n');
    } else {
      wrap(b, head, rest);
    }
  }

  /**
   * Appends {@code text} after {@code first}, wrapped at word boundaries to the report's width;
   * continuation lines are indented as far as {@code first} when that leaves at least 16 columns,
   * else by 7. A word longer than a line is broken.
   */
  private void wrap(StringBuilder b, String first, String text) {
    int contWidth = width - first.length() >= 16 ? first.length() : Math.min(first.length(), 7);
    String cont = " ".repeat(contWidth);
    StringBuilder line = new StringBuilder(first);
    boolean empty = true;
    for (String word : text.trim().split("\\s+")) {
      if (word.isEmpty()) {
        continue;
      }
      boolean fits = line.length() + (empty ? 0 : 1) + word.length() <= width;
      if (!fits && (!empty || line.length() > cont.length())) {
        b.append(line.toString().stripTrailing()).append('\n');
        line = new StringBuilder(cont);
        empty = true;
      }
      // A word longer than a whole line: as much as fits, then the rest on the next lines.
      while (cont.length() + word.length() > width && line.length() + (empty ? 0 : 1) < width) {
        if (!empty) {
          line.append(' ');
        }
        int room = width - line.length();
        b.append(line).append(word, 0, room).append('\n');
        word = word.substring(room);
        line = new StringBuilder(cont);
        empty = true;
      }
      if (!empty) {
        line.append(' ');
      }
      line.append(word);
      empty = false;
    }
    b.append(line.toString().stripTrailing()).append('\n');
  }

  static String pct(long ns, long total) {
    return String.format(Locale.ROOT, "%.2f%%", Results.percent(ns, total));
  }

  /** A duration for humans: ns, us, ms or s. */
  public static String duration(long ns) {
    return TimeText.duration(ns);
  }
}
