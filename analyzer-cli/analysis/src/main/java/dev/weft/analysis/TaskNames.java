package dev.weft.analysis;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.RegionDef;
import java.util.List;

/**
 * Names tasks by the user code that created them. A task's creation call site is often inside the
 * JDK (a pool's work queue re-submitting it, a {@code CompletableFuture} stage); such a site says
 * nothing to the user, so the analysis (a task's call-path frame) and the exporters name the task
 * by the nearest user code open on the creating thread instead: the enclosing task or region. One
 * naming, so that a task reads the same in every output.
 */
public final class TaskNames {
  private static final String[] LIBRARY_PREFIXES = {
    "java.", "javax.", "jdk.", "sun.", "com.sun.", "dev.weft.agent."
  };

  private TaskNames() {}

  /** A frame open on a thread, as an exporter keeps its stack: what {@link #userSite} looks at. */
  public interface OpenFrame {
    /** The frame's region (for a task: where it was created), or null. */
    RegionDef site();

    /** Whether it is code running (a region, a parallel region, a task), not a wait. */
    boolean isCode();

    /** Whether it is a region (a submission call is one). */
    boolean isRegion();
  }

  /**
   * The site that names a task created at {@code created} on a thread with {@code stack} open (the
   * innermost last): {@code created} if it is user code, else the innermost code frame open with a
   * user code site; of submissions entered directly one inside another (an executor wrapping
   * another), the outermost. {@code created} when nothing open is user code.
   */
  public static RegionDef userSite(RegionDef created, List<? extends OpenFrame> stack) {
    if (isUserCode(created)) {
      return created;
    }
    for (int i = stack.size() - 1; i >= 0; i--) {
      OpenFrame o = stack.get(i);
      if (o.isCode() && isUserCode(o.site())) {
        while (i > 0 && handedOn(stack.get(i), stack.get(i - 1))) {
          i--;
        }
        return stack.get(i).site();
      }
    }
    return created;
  }

  /** Whether region {@code inner} is a submission handed on by the one of {@code outer}. */
  private static boolean handedOn(OpenFrame inner, OpenFrame outer) {
    return inner.isRegion()
        && outer.isRegion()
        && isSubmission(inner.site())
        && isSubmission(outer.site());
  }

  /** True when the region is a call site in the application's own code. */
  public static boolean isUserCode(RegionDef r) {
    if (r == null || r.declaringClass().isEmpty()) {
      return false;
    }
    for (String p : LIBRARY_PREFIXES) {
      if (r.declaringClass().startsWith(p)) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when the region is an executor's submission call site ({@code execute}, {@code submit},
   * {@code schedule}…). One entered directly inside another is that submission handed on by an
   * executor wrapping another, and the outer one names the task.
   */
  public static boolean isSubmission(RegionDef r) {
    return r != null && r.kind() == ConstructKind.EXECUTOR;
  }

  /**
   * {@code task Class.method:line}, {@code task Class:line} or {@code task Class} from a user code
   * region; plain {@code task} for null.
   */
  public static String taskName(RegionDef site) {
    if (site == null) {
      return "task";
    }
    String cls = site.declaringClass();
    String simple = cls.substring(cls.lastIndexOf('.') + 1);
    StringBuilder b = new StringBuilder("task ").append(simple.isEmpty() ? site.name() : simple);
    if (!site.method().isEmpty()) {
      b.append('.').append(site.method());
    }
    if (site.firstLine() > 0) {
      b.append(':').append(site.firstLine());
    }
    return b.toString();
  }
}
