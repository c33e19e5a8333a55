package dev.weft.analysis.properties;

import dev.weft.analysis.LockAcquisition;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/** Lock contention on JVM monitors ({@code synchronized}). */
@PropertyInfo(
    id = "monitor_contention",
    parent = "lock_contention",
    name = "Monitor contention",
    info = "Lock contention on synchronized blocks and methods",
    description =
        """
        The part of [[lock_contention]] on JVM monitors: locks whose object definition, or whose \
        request's call site, is a synchronized block (MONITOR) or a synchronized method.\
        """,
    diagnosis =
        """
        A hot synchronized block or method. Shorten the critical section, synchronize on finer \
        objects, or replace it with a concurrent structure. Compare [[lock_api_contention]].\
        """)
public final class MonitorContention extends Property {
  private long waitingForHolder;
  private long handoff;

  @Override
  public void onLockAcquisition(LockAcquisition a) {
    if (a.monitor()) {
      a.claim(this, a.total());
      waitingForHolder += a.waitingForHolder();
      handoff += a.handoff();
    }
  }

  @Override
  public Map<String, Long> causes() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("waiting_for_holder_ns", waitingForHolder);
    m.put("handoff_latency_ns", handoff);
    return m;
  }
}
