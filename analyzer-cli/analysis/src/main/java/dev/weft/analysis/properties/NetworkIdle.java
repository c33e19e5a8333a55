package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.WaitSpan;
import dev.weft.trace.WaitKind;
import java.util.Map;

/** Event loops and listeners waiting for the network to bring work: select and accept. */
@PropertyInfo(
    id = "network_idle",
    parent = "idle_threads",
    readyForWork = true,
    name = "Network idle",
    info = "Time event loops and listeners waited for the network (select, accept)",
    description =
        """
        WAIT_ENTER..WAIT_EXIT of kind select (a selector's select: an event loop waiting for one \
        of its channels to become ready) or accept (ServerSocket.accept, \
        ServerSocketChannel.accept: a listener waiting for a client), at the program's call sites \
        and in the JDK's own HttpClient selector thread and HTTP server dispatcher. The thread had nothing to \
        do until the network brought it something, so this time weighs nothing on the critical \
        path, like a pool worker's idle time, and a chain through it no longer shows what made its \
        thread go on. A select or accept made directly inside \
        another recorded wait is that wait's. Causes: select_ns, accept_ns.\
        """,
    diagnosis =
        """
        Not a problem in itself: the loop or listener was ready before its work came. If other \
        threads of the program waited for this server at the same time (their [[io_wait]]), the \
        server was slow elsewhere: look at its threads' execution and their other waits. A \
        loop that is never idle is saturated: give it more threads or less work per event.\
        """)
public final class NetworkIdle extends Property {
  private final WaitKindTimes byKind = new WaitKindTimes(WaitKind.SELECT, WaitKind.ACCEPT);

  @Override
  public void onWait(WaitSpan wait) {
    int kind = wait.waitKind();
    if (WaitKind.networkIdle(kind)) {
      byKind.add(kind, wait.claim(this, wait.total()));
    }
  }

  @Override
  public Map<String, Long> causes() {
    return byKind.causes();
  }
}
