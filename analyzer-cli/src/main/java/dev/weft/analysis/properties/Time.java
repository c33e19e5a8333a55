package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;

/** The root of the time tree: every traced thread's lifetime inside the trace window. */
@PropertyInfo(
    id = "time",
    parent = "",
    name = "Time",
    info = "Total CPU allocation time: the lifetimes of all traced threads inside the trace window",
    description =
        """
        Every traced thread is counted as owning a CPU for its whole lifetime inside the analysed \
        window: from its first definition, THREAD_BEGIN or first event to its THREAD_END, or to \
        the end of the window when it did not end. The children of this property partition that \
        time: every nanosecond of every thread is counted exactly once, in [[execution]] or in one \
        of the wait properties. Percentages everywhere are of this total.\
        """,
    diagnosis =
        """
        Not a problem in itself. Compare the wait properties below it with [[execution]] to see \
        how much of the time the program's threads could have worked but did not.\
        """)
public final class Time extends Property {}
