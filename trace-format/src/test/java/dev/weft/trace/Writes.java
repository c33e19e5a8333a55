package dev.weft.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Test helper: writes any event kind through its {@link StreamWriter} method, and random events;
 * reads a trace's events as lines.
 */
final class Writes {
  private Writes() {}

  /** Every event of {@code t}'s merged reading, as "time:stream:kind". */
  static List<String> eventLines(Trace t) {
    List<String> read = new ArrayList<>();
    EventCursor c = t.events();
    while (c.next()) {
      read.add(c.time() + ":" + c.stream() + ":" + c.kind().id());
    }
    return read;
  }

  /** Kinds that have a StreamWriter method (DROPPED is written by the writer itself). */
  static final List<EventKind> WRITABLE = writable();

  private static List<EventKind> writable() {
    List<EventKind> kinds = new ArrayList<>();
    for (EventKind k : EventKind.values()) {
      if (k != EventKind.DROPPED) {
        kinds.add(k);
      }
    }
    return List.copyOf(kinds);
  }

  /** True for fields that StreamWriter takes as int (stored as unsigned 32-bit values). */
  static boolean isInt(Field f) {
    switch (f) {
      case REGION:
      case POOL:
      case PARALLELISM:
      case OUTCOME:
      case FLAGS:
      case WAIT_KIND:
        return true;
      default:
        return false;
    }
  }

  /** Writes one event; {@code f} holds the values as the reader returns them. */
  static void write(StreamWriter s, EventKind k, long t, long[] f) {
    switch (k) {
      case ENTER:
        s.enter(t, (int) f[0]);
        break;
      case EXIT:
        s.exit(t, (int) f[0]);
        break;
      case FORK:
        s.fork(t, (int) f[0], (int) f[1], (int) f[2]);
        break;
      case JOIN:
        s.join(t, (int) f[0], (int) f[1]);
        break;
      case TASK_CREATE:
        s.taskCreate(t, (int) f[0], f[1], (int) f[2]);
        break;
      case TASK_BEGIN:
        s.taskBegin(t, f[0]);
        break;
      case TASK_END:
        s.taskEnd(t, f[0]);
        break;
      case JOIN_WAIT_ENTER:
        s.joinWaitEnter(t, (int) f[0], f[1]);
        break;
      case JOIN_WAIT_EXIT:
        s.joinWaitExit(t, (int) f[0]);
        break;
      case BARRIER_ENTER:
        s.barrierEnter(t, (int) f[0], f[1], f[2]);
        break;
      case BARRIER_EXIT:
        s.barrierExit(t, (int) f[0], f[1], f[2], (int) f[3]);
        break;
      case LOCK_REQUEST:
        s.lockRequest(t, (int) f[0], f[1]);
        break;
      case LOCK_ACQUIRED:
        s.lockAcquired(t, f[0], (int) f[1]);
        break;
      case LOCK_RELEASED:
        s.lockReleased(t, f[0]);
        break;
      case WAIT_ENTER:
        s.waitEnter(t, (int) f[0], (int) f[1]);
        break;
      case WAIT_EXIT:
        s.waitExit(t, (int) f[0]);
        break;
      case MEASUREMENT_ON:
        s.measurementOn(t);
        break;
      case MEASUREMENT_OFF:
        s.measurementOff(t);
        break;
      case THREAD_CREATE:
        s.threadCreate(t, (int) f[0], f[1]);
        break;
      case THREAD_BEGIN:
        s.threadBegin(t);
        break;
      case THREAD_END:
        s.threadEnd(t);
        break;
      case SPIN_ENTER:
        s.spinEnter(t, (int) f[0]);
        break;
      case SPIN_EXIT:
        s.spinExit(t, (int) f[0]);
        break;
      case TASK_SUMMARY:
        s.taskSummary(t, (int) f[0], (int) f[1], f[2], f[3]);
        break;
      case HELP_ENTER:
        s.helpEnter(t, (int) f[0]);
        break;
      case HELP_EXIT:
        s.helpExit(t, (int) f[0]);
        break;
      case NOTIFY:
        s.notify(t, (int) f[0], f[1], (int) f[2]);
        break;
      case VTHREAD_MOUNT:
        s.vthreadMount(t, f[0]);
        break;
      case VTHREAD_UNMOUNT:
        s.vthreadUnmount(t, f[0]);
        break;
      case WAIT_ENTER_ON:
        s.waitEnterOn(t, (int) f[0], (int) f[1], f[2]);
        break;
      default:
        throw new IllegalArgumentException("no writer method for " + k);
    }
  }

  /**
   * A random value for a field: mostly small (as ids are), sometimes at varint length edges or
   * anywhere in the type's range.
   */
  static long value(Field f, SplittableRandom r) {
    long v;
    switch (r.nextInt(8)) {
      case 0:
        v = r.nextLong(); // anywhere, negative included
        break;
      case 1:
        {
          int bits = 7 * (1 + r.nextInt(9));
          long edge = 1L << bits;
          v = edge + r.nextInt(3) - 1; // around a varint length boundary
          break;
        }
      case 2:
        v = r.nextInt(1 << 21);
        break;
      default:
        v = r.nextInt(200);
        break;
    }
    return isInt(f) ? (v & 0xFFFF_FFFFL) : v;
  }

  /** A random time step: often small, sometimes zero, sometimes at a length edge or huge. */
  static long step(SplittableRandom r) {
    switch (r.nextInt(10)) {
      case 0:
        return 0;
      case 1:
        return (1L << (7 * (1 + r.nextInt(6)))) - r.nextInt(2);
      case 2:
        return r.nextLong(1L << 40);
      default:
        return 100 + r.nextInt(50_000);
    }
  }

  /** A random event of a random writable kind at time {@code t} on {@code stream}. */
  static Event random(SplittableRandom r, long t, int stream) {
    EventKind k = WRITABLE.get(r.nextInt(WRITABLE.size()));
    long[] f = new long[k.fieldCount()];
    for (int i = 0; i < f.length; i++) {
      f[i] = value(k.field(i), r);
    }
    return new Event(k, t, stream, f);
  }
}
