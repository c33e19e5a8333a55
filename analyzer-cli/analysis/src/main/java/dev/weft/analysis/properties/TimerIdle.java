package dev.weft.analysis.properties;

import dev.weft.analysis.IdleTime;
import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.WaitSpan;
import dev.weft.trace.WaitKind;

/** Workers of scheduled executors and timers' threads idle until their next task comes due. */
@PropertyInfo(
    id = "timer_idle",
    parent = "idle_threads",
    readyForWork = true,
    name = "Timer idle",
    info =
        "Time workers of scheduled executors and timers' threads sat idle waiting for a task to"
            + " come due",
    description =
        """
        The part of [[idle_threads]] during which the worker's pool had no work in flight but a \
        task scheduled with a delay that had not begun (created at a delayed_task region: \
        ScheduledThreadPoolExecutor.schedule, and each next run of a periodic task): the worker \
        waited for a timer, as scheduler threads, periodic housekeeping and servers' idle \
        timeouts (armed, and often cancelled before they are due) make it. Also a \
        java.util.Timer's thread waiting until the first of its scheduled tasks is due (wait kind \
        timer_due; its wait while no task is scheduled is [[task_queue_idle]]). Like all idle \
        time it weighs nothing on the critical path, but its end has a known cause, the time: a \
        thread it held up follows the timer's chain (a run paced by its schedule has the \
        timer's waits on its path).\
        """,
    diagnosis =
        """
        Not a problem in itself: the executor's threads wait for the times their tasks were \
        scheduled at. Threads that do nothing else for the whole run are threads the executor \
        could do without (fewer core threads, or timers sharing one scheduler); a task that \
        must run sooner needs a shorter delay, not more threads.\
        """)
public final class TimerIdle extends Property {
  @Override
  public void onIdle(IdleTime idle) {
    idle.claim(this, idle.timer());
  }

  @Override
  public void onWait(WaitSpan wait) {
    if (wait.waitKind() == WaitKind.TIMER_DUE) {
      wait.claim(this, wait.total());
    }
  }
}
