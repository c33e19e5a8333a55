package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;

/** The root of the time tree: every traced thread's lifetime inside the analysed run. */
@PropertyInfo(
    id = "time",
    parent = "",
    name = "Time",
    info = "Total CPU allocation time: the lifetimes of all traced threads inside the analysed run",
    description =
        """
        Every traced thread is counted as owning a CPU for its whole lifetime inside the analysed \
        run: from its first definition, THREAD_BEGIN or first event to its THREAD_END; without \
        one, to the end of a trace closed cleanly, or, in a trace that was cut, to the cut when \
        the thread was blocked there (a wait open, or an idle pool worker) and else to its own \
        last event. The children of this property partition that \
        time: every nanosecond of every thread is counted exactly once, in [[execution]] or in one \
        of the wait properties. Percentages everywhere are of this total.\
        """,
    diagnosis =
        """
        Not a problem in itself. Compare the wait properties below it with [[execution]] to see \
        how much of the time the program's threads could have worked but did not.\
        """)
public final class Time extends Property {}
