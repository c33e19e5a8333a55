package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;

/** Waits charged to the thread and call path whose excess work caused them. */
@PropertyInfo(
    id = "delay_cost",
    parent = "",
    name = "Delay cost",
    info = "Wait time charged to the thread and call path whose excess work caused it",
    description =
        """
        Short-term delay costs (Böhme et al., as in Scalasca): every wait that another thread \
        caused is charged to that thread, at the call path where it was when it released the \
        waiters, instead of to the waiting thread. A barrier's waiting_for_last time of each \
        arrival goes to the generation's last arrival, at the call path it arrived from (its \
        excess work); a lock's waiting_for_holder time is split at the releases during the wait, \
        each piece going to the holder whose release ended it, at the call path inside its \
        critical section; a condition wait's time up to the notification that ended it goes to \
        the notifier, at the call path of its notify; a join wait's time up to the end of the \
        awaited task goes to the thread that ran it, at the task's call path. The costs of one \
        synchronisation sum to the waits they explain, so [[delay_cost_barrier]] equals the \
        waiting_for_last cause of [[barrier_wait]] and [[delay_cost_lock]] the waiting_for_holder \
        cause of [[lock_contention]] and [[delay_cost_condition]] the notified condition waits minus \
        their wake-up latencies and [[delay_cost_join]] the join waits minus their hand-over \
        latencies, except for waits whose cause is not recorded (a holder \
        whose release is missing, a generation whose last arrival was not traced). Hand-over \
        latencies are nobody's excess work and are not charged. Long-term costs (the propagation \
        of a delay through chains of waits) are not computed: a thread that arrived late only \
        because it waited for another is charged itself. This root overlaps the waits it \
        explains, so it is a separate root.\
        """,
    diagnosis =
        """
        The threads and call paths at the top are where shortening the work shortens other \
        threads' waits. When the costs rotate over threads (each thread costs about as much), the \
        work of every round is uneven, not one thread's share: even out each round.\
        """)
public final class DelayCost extends Property {}
