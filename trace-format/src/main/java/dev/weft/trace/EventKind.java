package dev.weft.trace;

import static dev.weft.trace.Field.*;

import java.util.Arrays;

/**
 * Every event record of format v1: its one-byte code, its name (the lower_snake_case name used by
 * {@code weft summary --format json} and FORMAT.md), and the fields that follow the timestamp
 * delta, each an unsigned LEB128 varint. Codes are a public contract: never renumber, only add.
 */
public enum EventKind {
  ENTER(0x01, "enter", REGION),
  EXIT(0x02, "exit", REGION),
  FORK(0x03, "fork", REGION, POOL, PARALLELISM),
  JOIN(0x04, "join", REGION, POOL),
  TASK_CREATE(0x05, "task_create", REGION, TASK, POOL),
  TASK_BEGIN(0x06, "task_begin", TASK),
  TASK_END(0x07, "task_end", TASK),
  JOIN_WAIT_ENTER(0x08, "join_wait_enter", REGION, TARGET),
  JOIN_WAIT_EXIT(0x09, "join_wait_exit", REGION),
  BARRIER_ENTER(0x0A, "barrier_enter", REGION, OBJECT, GENERATION),
  BARRIER_EXIT(0x0B, "barrier_exit", REGION, OBJECT, GENERATION, OUTCOME),
  LOCK_REQUEST(0x0C, "lock_request", REGION, OBJECT),
  LOCK_ACQUIRED(0x0D, "lock_acquired", OBJECT, FLAGS),
  LOCK_RELEASED(0x0E, "lock_released", OBJECT),
  WAIT_ENTER(0x0F, "wait_enter", REGION, WAIT_KIND),
  WAIT_EXIT(0x10, "wait_exit", REGION),
  MEASUREMENT_ON(0x11, "measurement_on"),
  MEASUREMENT_OFF(0x12, "measurement_off"),
  DROPPED(0x13, "dropped", COUNT),
  THREAD_CREATE(0x14, "thread_create", REGION, THREAD),
  THREAD_BEGIN(0x15, "thread_begin"),
  THREAD_END(0x16, "thread_end"),
  SPIN_ENTER(0x17, "spin_enter", REGION),
  SPIN_EXIT(0x18, "spin_exit", REGION),
  TASK_SUMMARY(0x19, "task_summary", REGION, POOL, COUNT, DURATION),
  HELP_ENTER(0x1A, "help_enter", REGION),
  HELP_EXIT(0x1B, "help_exit", REGION),
  NOTIFY(0x1C, "notify", REGION, OBJECT, WAIT_KIND),
  VTHREAD_MOUNT(0x1D, "vthread_mount", THREAD),
  VTHREAD_UNMOUNT(0x1E, "vthread_unmount", THREAD),
  WAIT_ENTER_ON(0x1F, "wait_enter_on", REGION, WAIT_KIND, OBJECT);

  /** Largest field count of any kind; cursors size their field arrays with it. */
  public static final int MAX_FIELDS = 4;

  private static final EventKind[] BY_CODE = new EventKind[256];

  static {
    for (EventKind k : values()) {
      BY_CODE[k.code] = k;
    }
  }

  private final int code;
  private final String id;
  private final Field[] fields;
  private final int[] indexOf = new int[Field.values().length];
  private final boolean hasRegion;
  private final int u32Fields;

  EventKind(int code, String id, Field... fields) {
    this.code = code;
    this.id = id;
    this.fields = fields;
    Arrays.fill(indexOf, -1);
    for (int i = 0; i < fields.length; i++) {
      indexOf[fields[i].ordinal()] = i;
    }
    this.hasRegion = fields.length > 0 && fields[0] == REGION;
    int mask = 0;
    for (int i = 0; i < fields.length; i++) {
      Field f = fields[i];
      if (f == REGION
          || f == POOL
          || f == PARALLELISM
          || f == OUTCOME
          || f == FLAGS
          || f == WAIT_KIND) {
        mask |= 1 << i;
      }
    }
    this.u32Fields = mask;
  }

  /**
   * Bit i set when field i is written from an {@code int} (stored as an unsigned 32-bit value): a
   * larger value cannot have been written.
   */
  public int u32Fields() {
    return u32Fields;
  }

  /** True when the first field is a region id (the only place a region id appears). */
  public boolean hasRegion() {
    return hasRegion;
  }

  /** The byte that starts this record in an event stream. */
  public int code() {
    return code;
  }

  /** The stable lower_snake_case name, as in FORMAT.md and the JSON summary. */
  public String id() {
    return id;
  }

  public int fieldCount() {
    return fields.length;
  }

  public Field field(int index) {
    return fields[index];
  }

  /** Position of {@code field} in this kind's payload, or -1 when the kind has no such field. */
  public int indexOf(Field field) {
    return indexOf[field.ordinal()];
  }

  /** The kind with this code, or {@code null} when the code is not an event of format v1. */
  public static EventKind ofCode(int code) {
    return BY_CODE[code & 0xFF];
  }

  /** The kind with this lower_snake_case id, or {@code null}. */
  public static EventKind ofId(String id) {
    for (EventKind k : values()) {
      if (k.id.equals(id)) {
        return k;
      }
    }
    return null;
  }
}
