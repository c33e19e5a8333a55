package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/** Waits charged through a chain of waits to the thread whose work began the chain. */
@PropertyInfo(
    id = "delay_cost_long_term",
    parent = "delay_cost",
    name = "Long-term delay cost",
    info = "Waiting caused through a chain of waits, charged to the thread that began the chain",
    description =
        """
        Long-term delay costs (Böhme et al., as in Scalasca, for threads): when a thread is charged \
        a wait of another (it arrived last at a barrier, released a lock, notified, or ran an \
        awaited task) for an interval in which it was itself waiting for a third thread, that part \
        of the wait is not its own doing: it goes to the third thread, at the call path where that \
        thread was when it released it, and further down the chain to the thread whose own work \
        began it. Only the causer's charged waits count (its wait for a barrier's last arrival, a \
        lock's holder, a notification or an awaited task, up to that release); its hand-over \
        latencies stay its own. Each wait's long-term parts and its short-term part (the other \
        children of [[delay_cost]]) are disjoint and sum to the part of the wait that is charged at \
        all, so [[delay_cost]] is unchanged by the split. Causes: ns per kind of the wait \
        explained (barrier, lock, condition, join). Each thread keeps its latest 1024 explained \
        waits (adjacent ones with the same cause merged); an interval reaching further back is \
        charged short-term for that part, and a note counts such waits. The interval of a wait \
        is measured in time, not in the work it delayed: a causer that waited for a third thread \
        while the waiter was already waiting passes that overlap on, even if its work after the \
        wait was longer than needed.\
        """,
    diagnosis =
        """
        The threads and call paths at the top delayed others indirectly: their work made a thread \
        wait, and that thread then made others wait. Shortening the work at the top shortens the \
        whole chain; shortening the intermediate thread's own work helps less than its \
        short-term costs suggest.\
        """)
public final class DelayCostLongTerm extends Property implements DelayChains.LongTerm {
  private final long[] byKind = new long[DelayChains.KIND_NAMES.length];

  @Override
  public void charge(int node, int thread, long ns, int kind) {
    add(node, thread, ns);
    byKind[kind] += ns;
  }

  @Override
  public Map<String, Long> causes() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (int k = 0; k < byKind.length; k++) {
      m.put(DelayChains.KIND_NAMES[k], byKind[k]);
    }
    return m;
  }
}
