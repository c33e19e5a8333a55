package dev.weft.trace.pairing;

import dev.weft.trace.EventKind;
import dev.weft.trace.Field;

/**
 * The pairing grammar of format v1: every construct a thread's events open and close, with the
 * event kind that opens it, the one that closes it, and the fields that must agree between the two
 * (its key). FORMAT.md's "Pairing" table is this enum; {@link PairMatcher} applies it.
 */
public enum Construct {
  REGION(EventKind.ENTER, EventKind.EXIT, Field.REGION, null, Nesting.NESTED, ""),
  PARALLEL(EventKind.FORK, EventKind.JOIN, Field.REGION, null, Nesting.NESTED, ""),
  TASK(
      EventKind.TASK_BEGIN,
      EventKind.TASK_END,
      Field.TASK,
      null,
      Nesting.NESTED,
      "tasks nest (a worker runs another task while it helps inside a join)"),
  JOIN_WAIT(
      EventKind.JOIN_WAIT_ENTER,
      EventKind.JOIN_WAIT_EXIT,
      Field.REGION,
      null,
      Nesting.NESTED,
      Construct.OTHER_SITE),
  BARRIER_WAIT(
      EventKind.BARRIER_ENTER,
      EventKind.BARRIER_EXIT,
      Field.OBJECT,
      Field.GENERATION,
      Nesting.NESTED,
      ""),
  LOCK_WAIT(
      EventKind.LOCK_REQUEST,
      EventKind.LOCK_ACQUIRED,
      Field.OBJECT,
      null,
      Nesting.NESTED,
      "a `lock_acquired` without a request closes nothing (a try-lock, or a request before the"
          + " recording)"),
  WAIT(
      EventKind.WAIT_ENTER,
      EventKind.WAIT_EXIT,
      Field.REGION,
      null,
      Nesting.NESTED,
      "`wait_enter_on` opens it too; the exit does not repeat the wait kind: it is the entry's; "
          + Construct.OTHER_SITE),
  SPIN(
      EventKind.SPIN_ENTER,
      EventKind.SPIN_EXIT,
      Field.REGION,
      null,
      Nesting.NESTED,
      Construct.OTHER_SITE),
  HELP(
      EventKind.HELP_ENTER,
      EventKind.HELP_EXIT,
      Field.REGION,
      null,
      Nesting.NESTED,
      Construct.OTHER_SITE),
  LOCK_HOLD(
      EventKind.LOCK_ACQUIRED,
      EventKind.LOCK_RELEASED,
      Field.OBJECT,
      null,
      Nesting.COUNTED,
      "not opened by flag FAILED or ABORTED; AFTER_WAIT adds nothing when the lock is held;"
          + " semaphores and stamped locks may be released by another thread"),
  MOUNT(
      EventKind.VTHREAD_MOUNT,
      EventKind.VTHREAD_UNMOUNT,
      Field.THREAD,
      null,
      Nesting.SINGLE,
      "on a carrier's stream; a `thread_end` while a virtual thread is mounted is that thread's");

  private static final String OTHER_SITE =
      "an exit naming another site closes the innermost one (an error for `weft verify`)";

  private static final Construct[] OPENED_BY = new Construct[EventKind.values().length];
  private static final Construct[] CLOSED_BY = new Construct[EventKind.values().length];

  static {
    for (Construct c : values()) {
      OPENED_BY[c.opener.ordinal()] = c;
      CLOSED_BY[c.closer.ordinal()] = c;
    }
    // A wait that names what it waits on is a wait all the same (since 1.4).
    OPENED_BY[EventKind.WAIT_ENTER_ON.ordinal()] = WAIT;
  }

  private final EventKind opener;
  private final EventKind closer;
  private final Field key;
  private final Field secondKey;
  private final Nesting nesting;
  private final String note;
  final int openerKey;
  final int openerSecondKey;
  final int closerKey;
  final int closerSecondKey;

  Construct(
      EventKind opener,
      EventKind closer,
      Field key,
      Field secondKey,
      Nesting nesting,
      String note) {
    this.opener = opener;
    this.closer = closer;
    this.key = key;
    this.secondKey = secondKey;
    this.nesting = nesting;
    this.note = note;
    this.openerKey = opener.indexOf(key);
    this.closerKey = closer.indexOf(key);
    this.openerSecondKey = secondKey == null ? -1 : opener.indexOf(secondKey);
    this.closerSecondKey = secondKey == null ? -1 : closer.indexOf(secondKey);
  }

  /** The lower_snake_case name FORMAT.md uses. */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  public EventKind opener() {
    return opener;
  }

  public EventKind closer() {
    return closer;
  }

  /** The field the opening and the closing event must agree on. */
  public Field key() {
    return key;
  }

  /** A second field they must agree on, or null. */
  public Field secondKey() {
    return secondKey;
  }

  public Nesting nesting() {
    return nesting;
  }

  /** What else the rule says, or "". */
  public String note() {
    return note;
  }

  /**
   * True when a closing event whose key matches no open instance closes the innermost open one all
   * the same (a wait's exit that names another call site than its entry): waits, spins and helping
   * end where the thread's code goes on, whatever site the exit names. {@code weft verify} still
   * reports the differing key.
   */
  public boolean closesInnermostWhenKeyDiffers() {
    return this == JOIN_WAIT || this == WAIT || this == SPIN || this == HELP;
  }

  /**
   * True while the thread is held up inside the construct rather than running: a thread whose
   * stream stops inside one (a cut trace) was blocked there, and the wait lasts to the cut.
   */
  public boolean blocksThread() {
    return this == JOIN_WAIT
        || this == BARRIER_WAIT
        || this == LOCK_WAIT
        || this == WAIT
        || this == SPIN;
  }

  /** True when a closing event that finds nothing open is no mistake (it also does more). */
  public boolean closeIsOptional() {
    return this == LOCK_WAIT;
  }

  /** The construct {@code kind} opens, or null. */
  public static Construct openedBy(EventKind kind) {
    return OPENED_BY[kind.ordinal()];
  }

  /** The construct {@code kind} closes, or null. */
  public static Construct closedBy(EventKind kind) {
    return CLOSED_BY[kind.ordinal()];
  }

  /** What {@code kind} does to what its thread has open. */
  public static Role role(EventKind kind) {
    Construct opens = openedBy(kind);
    Construct closes = closedBy(kind);
    if (opens != null && closes != null) {
      return Role.CLOSES_AND_OPENS;
    }
    if (opens != null) {
      return Role.OPENS;
    }
    if (closes != null) {
      return Role.CLOSES;
    }
    switch (kind) {
      case THREAD_END:
        return Role.ENDS;
      case DROPPED:
      case MEASUREMENT_ON:
        return Role.GAP;
      default:
        return Role.INSTANT;
    }
  }
}
