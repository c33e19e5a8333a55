package dev.weft.check;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/** The verdicts of a {@link Check}: status rows first, then every property in metric-tree order. */
public record CheckResult(List<Verdict> verdicts) {
  public CheckResult {
    verdicts = List.copyOf(verdicts);
  }

  public boolean failed() {
    return verdicts.stream().anyMatch(Verdict::failed);
  }

  public List<Verdict> failures() {
    return verdicts.stream().filter(Verdict::failed).collect(Collectors.toList());
  }

  /** The verdicts of properties a rule applied to (passed or failed). */
  public long checkedCount() {
    return verdicts.stream().filter(v -> v.outcome() != Verdict.Outcome.NOT_CHECKED).count();
  }

  /**
   * The closing line: {@code OK: 4 properties within limits, 11 not checked} or {@code FAILED: 2 of
   * 4 properties (barrier_wait, lock_contention), 11 not checked}.
   */
  public String summary() {
    long notChecked = verdicts.size() - checkedCount();
    String tail = notChecked == 0 ? "" : ", " + notChecked + " not checked";
    List<Verdict> failed = failures();
    if (failed.isEmpty()) {
      return "OK: " + checkedCount() + " properties within limits" + tail;
    }
    return "FAILED: "
        + failed.size()
        + " of "
        + checkedCount()
        + " properties ("
        + failed.stream().map(Verdict::id).collect(Collectors.joining(", "))
        + ")"
        + tail;
  }

  /**
   * GitHub Actions error annotations, one per failure, with the file and line of its worst call
   * path when it has one.
   *
   * @param resolve turns a source file name ({@code Worker.java}) into the path GitHub should
   *     annotate (relative to the repository), e.g. {@link SourceFiles#resolver}
   */
  public List<String> githubAnnotations(UnaryOperator<String> resolve) {
    return failures().stream()
        .map(
            v -> {
              String where = "";
              if (v.worst() != null && !v.worst().file().isEmpty()) {
                where = "file=" + escapeProperty(resolve.apply(v.worst().file()));
                if (v.worst().line() > 0) {
                  where += ",line=" + v.worst().line();
                }
                where += ",";
              }
              return "::error "
                  + where
                  + "title="
                  + escapeProperty("weft check: " + v.id())
                  + "::"
                  + escapeMessage(v.message());
            })
        .collect(Collectors.toList());
  }

  /** Escapes a message for a GitHub Actions workflow command. */
  static String escapeMessage(String message) {
    return message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
  }

  private static String escapeProperty(String value) {
    return escapeMessage(value).replace(":", "%3A").replace(",", "%2C");
  }
}
