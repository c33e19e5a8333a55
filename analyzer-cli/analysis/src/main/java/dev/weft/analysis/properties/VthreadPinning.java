package dev.weft.analysis.properties;

import dev.weft.analysis.CarrierSwitch;
import dev.weft.analysis.LockAcquisition;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.WaitSpan;
import dev.weft.trace.WaitKind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Virtual threads blocked while they held their carrier. */
@PropertyInfo(
    id = "vthread_pinning",
    parent = "",
    name = "Virtual thread pinning",
    info = "Time virtual threads were blocked without leaving their carrier (pinned)",
    description =
        """
        A wait of a virtual thread (sleep, park, Object.wait, Condition.await, or a lock \
        request to its acquisition) during which the virtual thread stayed mounted: its carrier \
        recorded no unmount of it between the wait's start and end, so the carrier was blocked \
        with it and ran no other virtual thread. This is what the JDK calls pinning: a blocked \
        monitor or Object.wait on JDK 21 to 23, a native frame or a class initialiser on the \
        stack on 24 and later. Counted at any duration (JFR's jdk.VirtualThreadPinned reports \
        only 20 ms and more); a lock acquisition counts from 50 µs (below, it is the \
        acquisition's own cost or a brief spin before the lock was free, not a block); yields \
        are left out. Attributed to the wait's call path and the virtual thread; the causes object \
        gives the total per kind of wait. A separate root: the same time is also in the wait's \
        own property under [[time]].\
        """,
    diagnosis =
        """
        Each pinned block takes a carrier away from every other virtual thread: with few \
        carriers (one per core by default) a handful of pinned threads stall the whole \
        scheduler, which [[carrier_utilisation]] shows as carriers busy while little runs. Look \
        at the call paths: on JDK 21 to 23 replace synchronized around blocking calls by a \
        ReentrantLock (or move to JDK 24+); on any JDK move blocking work out of class \
        initialisers and out of native callbacks.\
        """)
public final class VthreadPinning extends Property {
  /**
   * Lock acquisitions shorter than this were not blocked: the acquisition's own cost, or a lock
   * that spun briefly before it was free (java.util.concurrent locks spin before they park).
   */
  static final long MIN_LOCK_BLOCK_NS = 50_000;

  private boolean[] virtual = new boolean[16];
  private long[] lastUnmount = new long[16];
  private final Map<String, Long> byKind = new LinkedHashMap<>();

  @Override
  public void onCarrierSwitch(CarrierSwitch s) {
    int v = s.vthread();
    if (v < 0) {
      return;
    }
    if (v >= virtual.length) {
      int n = Math.max(v + 1, virtual.length * 2);
      virtual = Arrays.copyOf(virtual, n);
      lastUnmount = Arrays.copyOf(lastUnmount, n);
    }
    if (!virtual[v]) {
      virtual[v] = true;
      lastUnmount[v] = Long.MIN_VALUE;
    }
    if (!s.mount()) {
      lastUnmount[v] = s.time();
    }
  }

  @Override
  public void onWait(WaitSpan wait) {
    if (wait.waitKind() != WaitKind.YIELD && wait.waitKind() != WaitKind.THREAD_START) {
      pinned(
          wait.thread(), wait.node(), wait.start(), wait.total(), WaitKind.name(wait.waitKind()));
    }
  }

  @Override
  public void onLockAcquisition(LockAcquisition a) {
    if (a.total() >= MIN_LOCK_BLOCK_NS) {
      pinned(a.thread(), a.node(), a.start(), a.total(), a.monitor() ? "monitor" : "lock");
    }
  }

  private void pinned(int thread, int node, long start, long ns, String kind) {
    // Unmounted since the wait began: it left its carrier (only a wait began after the unmount).
    if (ns <= 0 || thread >= virtual.length || !virtual[thread] || lastUnmount[thread] >= start) {
      return;
    }
    add(node, thread, ns);
    byKind.merge(kind, ns, Long::sum);
  }

  @Override
  public Map<String, Long> causes() {
    return byKind.isEmpty() ? null : byKind;
  }
}
