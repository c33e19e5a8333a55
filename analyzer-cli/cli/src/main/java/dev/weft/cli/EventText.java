package dev.weft.cli;

import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.PoolDef;
import dev.weft.trace.RegionDef;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.WaitKind;
import java.util.HashMap;
import java.util.Map;

/**
 * Event fields in words, resolved through a trace's definitions: regions as {@code name @
 * File.java:12}, pools by name, lock and barrier ids in hex, flags decoded. Used by {@code print}
 * and {@code export}.
 */
final class EventText {
  private final Definitions defs;
  private final Map<Long, String> threadNamesByJavaId = new HashMap<>();
  // Labels are built once per region and object: printing millions of events reuses them.
  private final Map<Integer, String> regionLabels = new HashMap<>();
  private final Map<Long, String> objectLabels = new HashMap<>();

  EventText(Definitions defs) {
    this.defs = defs;
    for (ThreadDef t : defs.threads()) {
      threadNamesByJavaId.putIfAbsent(t.javaId(), t.name());
    }
  }

  /** Appends {@code " name=value"} for every field of the cursor's current event. */
  void appendFields(StringBuilder b, EventCursor c) {
    EventKind kind = c.kind();
    for (int i = 0; i < kind.fieldCount(); i++) {
      Field f = kind.field(i);
      b.append(' ').append(fieldName(kind, f)).append('=');
      appendValue(b, kind, f, c.field(i), c);
    }
  }

  /** The name a field is printed under; OBJECT is called lock, barrier or object by event kind. */
  static String fieldName(EventKind kind, Field f) {
    switch (f) {
      case OBJECT:
        switch (kind) {
          case LOCK_REQUEST:
          case LOCK_ACQUIRED:
          case LOCK_RELEASED:
            return "lock";
          case BARRIER_ENTER:
          case BARRIER_EXIT:
            return "barrier";
          default:
            return "object";
        }
      case WAIT_KIND:
        return "wait";
      default:
        return f.name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private void appendValue(StringBuilder b, EventKind kind, Field f, long v, EventCursor c) {
    switch (f) {
      case REGION:
        b.append(region((int) v));
        break;
      case POOL:
        b.append(pool((int) v));
        break;
      case TASK:
        b.append(hex(v));
        break;
      case TARGET:
        if (v != 0 && isThreadJoin((int) c.get(Field.REGION))) {
          b.append(thread(v));
        } else {
          b.append(v == 0 ? "unknown" : hex(v));
        }
        break;
      case OBJECT:
        b.append(object(v));
        break;
      case OUTCOME:
        b.append(barrierOutcome(v));
        break;
      case FLAGS:
        b.append(lockFlags(v));
        break;
      case WAIT_KIND:
        b.append(WaitKind.name(v));
        break;
      case THREAD:
        b.append(thread(v));
        break;
      case DURATION:
        b.append(Durations.format(v).replace(" ", ""));
        break;
      default:
        b.append(v);
    }
  }

  private boolean isThreadJoin(int region) {
    RegionDef r = defs.region(region);
    return r != null && r.kind() == ConstructKind.THREAD_JOIN;
  }

  /** {@code name @ File.java:12}, or {@code #7} for an undefined region. */
  String region(int id) {
    return regionLabels.computeIfAbsent(id, this::regionLabel);
  }

  private String regionLabel(int id) {
    RegionDef r = defs.region(id);
    if (r == null) {
      return "#" + id;
    }
    String where = r.location();
    return where.isEmpty() ? r.name() : r.name() + " @ " + where;
  }

  /** A region's name, or {@code #7}. */
  String regionName(int id) {
    RegionDef r = defs.region(id);
    return r == null ? "#" + id : r.name();
  }

  /** A region's source location ({@code File.java:12}), or "" when unknown. */
  String regionLocation(int id) {
    RegionDef r = defs.region(id);
    return r == null ? "" : r.location();
  }

  /** A pool by name; {@code none} for 0, {@code #3} when undefined. */
  String pool(int id) {
    if (id == 0) {
      return "none";
    }
    PoolDef p = defs.pool(id);
    return p == null ? "#" + id : p.name();
  }

  /** An object id in hex, with its class when defined: {@code 0x1f (ReentrantLock)}. */
  String object(long id) {
    return objectLabels.computeIfAbsent(id, this::objectLabel);
  }

  private String objectLabel(long id) {
    ObjectDef o = defs.object(id);
    if (o == null || o.className().isEmpty()) {
      return hex(id);
    }
    return hex(id) + " (" + simpleName(o.className()) + ")";
  }

  /** A Java thread id with its name when the trace knows it: {@code 23 (worker-1)}. */
  String thread(long javaId) {
    String name = threadNamesByJavaId.get(javaId);
    return name == null ? Long.toString(javaId) : javaId + " (" + name + ")";
  }

  static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  static String simpleName(String className) {
    int dot = className.lastIndexOf('.');
    return dot < 0 ? className : className.substring(dot + 1);
  }

  /** Lock acquisition flags as words: {@code reentrant,shared}; {@code none} for 0. */
  static String lockFlags(long flags) {
    return flags(
        flags,
        new int[] {
          LockFlags.REENTRANT,
          LockFlags.FAILED,
          LockFlags.SHARED,
          LockFlags.AFTER_WAIT,
          LockFlags.ABORTED
        },
        new String[] {"reentrant", "failed", "shared", "after_wait", "aborted"});
  }

  /** Barrier outcome flags as words: {@code last}; {@code none} for 0. */
  static String barrierOutcome(long outcome) {
    return flags(
        outcome,
        new int[] {
          BarrierOutcome.LAST,
          BarrierOutcome.TIMEOUT,
          BarrierOutcome.BROKEN,
          BarrierOutcome.INTERRUPTED
        },
        new String[] {"last", "timeout", "broken", "interrupted"});
  }

  private static String flags(long value, int[] bits, String[] names) {
    if (value == 0) {
      return "none";
    }
    StringBuilder b = new StringBuilder();
    long rest = value;
    for (int i = 0; i < bits.length; i++) {
      if ((value & bits[i]) != 0) {
        if (b.length() > 0) {
          b.append(',');
        }
        b.append(names[i]);
        rest &= ~bits[i];
      }
    }
    if (rest != 0) {
      if (b.length() > 0) {
        b.append(',');
      }
      b.append(hex(rest));
    }
    return b.toString();
  }
}
