package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.ThreadTime;

/** Working time: the part of each thread's lifetime no wait property claims. */
@PropertyInfo(
    id = "execution",
    parent = "time",
    name = "Execution",
    info = "Time threads spent working (everything no wait property claims)",
    description =
        """
        The remainder of [[time]]: thread time outside every recorded wait. It includes sleeping \
        (Thread.sleep, yield: programs sleep on purpose), lock acquisitions that found the lock \
        free, failed or re-entrant acquisitions, and a thread's time before its first event when \
        the trace started late (its state there is unknown, so no wait is invented). It is \
        attributed to the innermost call path: user region, task (under the call site that created \
        it), or the parallel region on the thread that forked it. A carrier's time running a \
        virtual thread outside frames of its own is execution at the pseudo call path (running \
        virtual threads): the same time is the virtual thread's own on its logical thread, and \
        [[carrier_utilisation]] shows it per carrier over time.\
        """,
    diagnosis =
        """
        The share of the program's CPU allocation that did useful work. Where it concentrates on \
        few threads while others wait, look at [[work_imbalance]] and the waits of the other \
        threads.\
        """)
public final class Execution extends Property {
  @Override
  public void onRemainder(ThreadTime time) {
    time.claim(this, time.unclaimed());
  }
}
