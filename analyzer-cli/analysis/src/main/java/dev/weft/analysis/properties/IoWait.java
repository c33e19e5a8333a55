package dev.weft.analysis.properties;

import dev.weft.analysis.Property;
import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.WaitSpan;
import dev.weft.trace.WaitKind;
import java.util.Map;

/** Threads blocked waiting for a peer over the network: a socket read, an HTTP exchange. */
@PropertyInfo(
    id = "io_wait",
    parent = "time",
    name = "I/O wait",
    info = "Time threads waited for a peer over the network (socket reads, HttpClient.send)",
    description =
        """
        WAIT_ENTER..WAIT_EXIT of kind socket_read (a read from a connected socket's stream, \
        java.net.Socket, recorded inside the JDK where every such read passes, from the call to \
        its return, the system call included: a read whose data had arrived is a wait of \
        microseconds) or http_send (java.net.http.HttpClient.send at the program's call site: \
        the request sent, the response received and its body handled by the client's own \
        threads). The peer's write is not an event, so the wait has no waker and no delay cost; \
        on the critical path it is the waiting thread's own, like a sleep. The call path of a \
        socket read is the reader's recorded regions with Socket read as the leaf. Causes: \
        socket_read_ns, http_send_ns. Reads of socket channels \
        (SocketChannel.read) are not recorded: a blocked one counts as execution, which the \
        note on time off the CPU names.\
        """,
    diagnosis =
        """
        The thread waited for another process, or for a server in this one: a database, a \
        service, the network. If the peer is in the trace (a server's threads), look at what it \
        did meanwhile; otherwise the peer's latency is the cost. Fewer round trips (batches, \
        pipelining) or asynchronous I/O keep the thread busy meanwhile.\
        """)
public final class IoWait extends Property {
  private final WaitKindTimes byKind = new WaitKindTimes(WaitKind.SOCKET_READ, WaitKind.HTTP_SEND);

  @Override
  public void onWait(WaitSpan wait) {
    int kind = wait.waitKind();
    if (WaitKind.networkPeer(kind)) {
      byKind.add(kind, wait.claim(this, wait.total()));
    }
  }

  @Override
  public Map<String, Long> causes() {
    return byKind.causes();
  }
}
