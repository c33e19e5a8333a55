package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.WaitSpan;

/** Busy-waiting. */
@PropertyInfo(
    id = "spin_wait",
    parent = "time",
    name = "Spin wait",
    info = "Time threads busy-waited (Thread.onSpinWait loops)",
    description =
        """
        SPIN_ENTER..SPIN_EXIT: a loop around Thread.onSpinWait (or a user-marked spin) at its \
        call site. The thread burns a CPU without progress.\
        """,
    diagnosis =
        """
        Spinning pays only when waits are shorter than a context switch. Long spins waste a core \
        another thread could use: block instead (a lock, a condition, a barrier).\
        """)
public final class SpinWait extends Property {
  @Override
  public void onSpin(WaitSpan spin) {
    spin.claim(this, spin.total());
  }
}
