package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.LockFlagsApp;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.LockFlags;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.RegionDef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The flags and pairing of lock events ({@link LockFlagsApp}): releases when exceptions leave
 * synchronized code, FAILED and ABORTED attempts, REENTRANT and SHARED acquisitions, one id per
 * read/write or stamped lock, and no events from the JDK's own locking.
 */
@Tag("child-jvm")
class LockFlagsIT {
  private static final Class<?> APP = LockFlagsApp.class;

  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  /** A LOCK_REQUEST and the LOCK_ACQUIRED answering it, on one thread. */
  record Attempt(Event request, Event acquired, RegionDef site) {
    long lock() {
      return request.get(Field.OBJECT);
    }

    long flags() {
      return acquired.get(Field.FLAGS);
    }
  }

  private static List<Attempt> attempts(TraceFacts t, String thread) {
    List<Attempt> out = new ArrayList<>();
    Event request = null;
    for (Event e : t.eventsByStream.get(SyncTraces.stream(t, thread))) {
      if (e.kind() == EventKind.LOCK_REQUEST) {
        assertEquals(null, request, "a request without acquisition: " + request);
        request = e;
      } else if (e.kind() == EventKind.LOCK_ACQUIRED) {
        assertTrue(request != null, "acquired without request: " + e);
        assertEquals(request.get(Field.OBJECT), e.get(Field.OBJECT));
        out.add(new Attempt(request, e, SyncTraces.regionOf(t, request)));
        request = null;
      }
    }
    return out;
  }

  /** The one attempt at the line marked {@code marker}. */
  private static Attempt at(List<Attempt> attempts, String marker) {
    int line = SyncTraces.lineOf(APP, marker);
    List<Attempt> found = attempts.stream().filter(a -> a.site().firstLine() == line).toList();
    assertEquals(1, found.size(), marker + ": " + found);
    return found.get(0);
  }

  private static void assertAttempt(Attempt a, String name, ConstructKind kind, long flags) {
    assertEquals(name, a.site().name());
    assertEquals(kind, a.site().kind());
    assertEquals("LockFlagsApp.java", a.site().file());
    assertEquals(flags, a.flags(), name + " at line " + a.site().firstLine());
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void flagsAndPairs(Path jdk) {
    TraceFacts t = SyncTraces.run(jdk, tmp, "", APP).trace();
    List<Attempt> main = attempts(t, "main");

    // Exceptions leaving synchronized code still release the monitor.
    Attempt block = at(main, "// throwing synchronized block");
    assertAttempt(block, "synchronized", ConstructKind.MONITOR, 0);
    Attempt method = at(main, "throw new IllegalStateException(\"inside a synchronized method\")");
    assertAttempt(
        method, "synchronized LockFlagsApp.failing", ConstructKind.SYNCHRONIZED_METHOD, 0);
    for (Attempt a : List.of(block, method)) {
      assertEquals(1, releasesAfter(t, "main", a), "released once after the exception");
    }

    // Failed and timed-out tries, an interrupted acquisition.
    Attempt failed = at(main, "// failed try site");
    assertAttempt(failed, "ReentrantLock.tryLock", ConstructKind.REENTRANT_LOCK, LockFlags.FAILED);
    Attempt timed = at(main, "// timed try site");
    assertAttempt(timed, "ReentrantLock.tryLock", ConstructKind.REENTRANT_LOCK, LockFlags.ABORTED);
    assertTrue(timed.acquired().time() - timed.request().time() >= 20_000_000L * 98 / 100);
    Attempt interrupted = at(attempts(t, "interrupted"), "// interrupted lock site");
    assertAttempt(
        interrupted,
        "ReentrantLock.lockInterruptibly",
        ConstructKind.REENTRANT_LOCK,
        LockFlags.ABORTED);
    Attempt held = at(attempts(t, "holder"), "// holder lock site");
    assertEquals(held.lock(), failed.lock());
    assertEquals(held.lock(), interrupted.lock());
    assertEquals(0, releasesAfter(t, "interrupted", interrupted), "never held, never released");

    // Re-entrant acquisitions.
    assertAttempt(at(main, "// outer monitor site"), "synchronized", ConstructKind.MONITOR, 0);
    assertAttempt(
        at(main, "// inner monitor site"),
        "synchronized",
        ConstructKind.MONITOR,
        LockFlags.REENTRANT);
    assertAttempt(
        at(main, "// outer lock site"), "ReentrantLock.lock", ConstructKind.REENTRANT_LOCK, 0);
    assertAttempt(
        at(main, "// inner lock site"),
        "ReentrantLock.lock",
        ConstructKind.REENTRANT_LOCK,
        LockFlags.REENTRANT);
    assertAttempt(
        at(main, "return inner() + 1;"),
        "synchronized LockFlagsApp.outer",
        ConstructKind.SYNCHRONIZED_METHOD,
        0);
    assertAttempt(
        at(main, "return 41;"),
        "synchronized LockFlagsApp.inner",
        ConstructKind.SYNCHRONIZED_METHOD,
        LockFlags.REENTRANT);
    // A wait inside two holds gives the monitor up and takes it back: not a re-entrant acquisition.
    Attempt afterWait = at(main, "// nested wait site");
    assertAttempt(afterWait, "Object.wait", ConstructKind.OBJECT_WAIT, LockFlags.AFTER_WAIT);
    assertEquals(block.lock(), afterWait.lock());

    // Read/write lock: one id, reads shared.
    Attempt read = at(main, "// read lock site");
    assertAttempt(read, "ReadLock.lock", ConstructKind.READ_WRITE_LOCK, LockFlags.SHARED);
    Attempt reread = at(main, "// second read lock site");
    assertAttempt(
        reread,
        "ReadLock.lock",
        ConstructKind.READ_WRITE_LOCK,
        LockFlags.SHARED | LockFlags.REENTRANT);
    Attempt write = at(main, "// write lock site");
    assertAttempt(write, "Lock.lock", ConstructKind.REENTRANT_LOCK, 0);
    assertEquals(read.lock(), write.lock(), "read and write locks of one lock share its id");
    ObjectDef rw = t.definitions.object(read.lock());
    assertEquals(ConstructKind.READ_WRITE_LOCK, rw.kind());
    assertEquals("java.util.concurrent.locks.ReentrantReadWriteLock", rw.className());

    // Stamped lock: never re-entrant, reads shared, its views are the lock.
    Attempt stampedRead = at(main, "// stamped read site");
    assertAttempt(
        stampedRead, "StampedLock.readLock", ConstructKind.STAMPED_LOCK, LockFlags.SHARED);
    assertAttempt(
        at(main, "// stamped failed try site"),
        "StampedLock.tryWriteLock",
        ConstructKind.STAMPED_LOCK,
        LockFlags.FAILED);
    Attempt stampedWrite = at(main, "// stamped write site");
    assertAttempt(stampedWrite, "StampedLock.writeLock", ConstructKind.STAMPED_LOCK, 0);
    Attempt view = at(main, "// stamped view site");
    assertAttempt(view, "Lock.lock", ConstructKind.REENTRANT_LOCK, LockFlags.SHARED);
    assertEquals(stampedRead.lock(), stampedWrite.lock());
    assertEquals(stampedRead.lock(), view.lock());
    ObjectDef stamped = t.definitions.object(stampedRead.lock());
    assertEquals(ConstructKind.STAMPED_LOCK, stamped.kind());
    assertEquals("java.util.concurrent.locks.StampedLock", stamped.className());

    // Semaphore: permits are shared acquisitions.
    Attempt permit = at(main, "// semaphore acquire site");
    assertAttempt(permit, "Semaphore.acquire", ConstructKind.SEMAPHORE, LockFlags.SHARED);
    Attempt secondPermit = at(main, "// semaphore try site");
    assertAttempt(
        secondPermit,
        "Semaphore.tryAcquire",
        ConstructKind.SEMAPHORE,
        LockFlags.SHARED | LockFlags.FAILED);
    assertEquals(permit.lock(), secondPermit.lock());
    assertEquals(1, releasesAfter(t, "main", secondPermit), "the first permit is released");

    // Nothing from the JDK's own locks (LinkedBlockingQueue, ConcurrentHashMap, StringBuffer):
    // every lock event names a lock the application asked for at its own line, or the monitor of
    // the PrintStream it printed to (woven on purpose: threads printing at once queue there).
    Set<Long> asked = new HashSet<>();
    for (Event e : t.allButPrinting()) {
      if (e.kind() == EventKind.LOCK_REQUEST) {
        RegionDef r = SyncTraces.regionOf(t, e);
        assertEquals(APP.getName(), r.declaringClass(), r.toString());
        asked.add(e.get(Field.OBJECT));
      }
    }
    for (Event e : t.allButPrinting()) {
      if (e.kind() == EventKind.LOCK_ACQUIRED || e.kind() == EventKind.LOCK_RELEASED) {
        assertTrue(asked.contains(e.get(Field.OBJECT)), "unasked lock: " + e);
      }
    }
  }

  /**
   * How many LOCK_RELEASED of the attempt's lock follow its acquisition on {@code thread} before
   * the thread's next request of that lock.
   */
  private static int releasesAfter(TraceFacts t, String thread, Attempt a) {
    List<Event> events = t.eventsByStream.get(SyncTraces.stream(t, thread));
    int releases = 0;
    for (int i = events.indexOf(a.acquired()) + 1; i < events.size(); i++) {
      Event e = events.get(i);
      if (e.kind().indexOf(Field.OBJECT) < 0 || e.get(Field.OBJECT) != a.lock()) {
        continue;
      }
      if (e.kind() == EventKind.LOCK_REQUEST) {
        break;
      }
      if (e.kind() == EventKind.LOCK_RELEASED) {
        releases++;
      }
    }
    return releases;
  }
}
