package dev.weft.analysis;

import static dev.weft.analysis.Check.atPath;
import static dev.weft.analysis.Check.cause;
import static dev.weft.analysis.Check.onThread;
import static dev.weft.analysis.Check.severity;
import static dev.weft.analysis.TraceFixture.label;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Waits for the network: a selector's select and an accept are the loop's idle time ({@code
 * network_idle}, on no chain of the critical path); a socket read or an HTTP exchange is {@code
 * io_wait}, the waiting thread's own wait on the critical path. Neither is a condition wait.
 */
class NetworkWaitTest {
  @TempDir Path tmp;

  @Test
  void selectAndAcceptAreNetworkIdleAndSocketReadsAreIoWaits() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int select = f.region("Selector.select", ConstructKind.SELECTOR, 60);
    int accept = f.region("ServerSocket.accept", ConstructKind.SOCKET, 61);
    int read = f.region("Socket read", ConstructKind.SOCKET, 62);
    int send = f.region("HttpClient.send", ConstructKind.SOCKET, 63);
    StreamWriter loop = f.thread("event-loop", 0);
    StreamWriter client = f.thread("client", 0);
    StreamWriter http = f.thread("http-client", 0);

    loop.waitEnter(0, accept, WaitKind.ACCEPT); // waits 100 for the client
    loop.waitExit(100, accept);
    loop.waitEnter(150, select, WaitKind.SELECT); // idle for 800, the longest of all
    loop.waitExit(950, select);
    client.waitEnter(200, read, WaitKind.SOCKET_READ); // waits 500 for the server's answer
    client.waitExit(700, read);
    http.waitEnter(100, send, WaitKind.HTTP_SEND); // waits 300 for a response
    http.waitExit(400, send);
    loop.threadEnd(1000);
    client.threadEnd(1000);
    http.threadEnd(900);
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(900, severity(r, "network_idle"));
    assertEquals(900, severity(r, "idle_threads")); // its parent's inclusive value
    assertEquals(800, cause(r, "network_idle", "select_ns"));
    assertEquals(100, cause(r, "network_idle", "accept_ns"));
    assertEquals(900, onThread(r, "network_idle", "event-loop"));
    assertEquals(800, atPath(r, "network_idle", label("Selector.select", 60)));
    assertEquals(100, atPath(r, "network_idle", label("ServerSocket.accept", 61)));
    assertEquals(800, severity(r, "io_wait"));
    assertEquals(500, cause(r, "io_wait", "socket_read_ns"));
    assertEquals(300, cause(r, "io_wait", "http_send_ns"));
    assertEquals(500, onThread(r, "io_wait", "client"));
    assertEquals(300, onThread(r, "io_wait", "http-client"));
    assertEquals(500, atPath(r, "io_wait", label("Socket read", 62)));
    assertEquals(300, atPath(r, "io_wait", label("HttpClient.send", 63)));
    assertEquals(0, severity(r, "condition_wait"));
    assertEquals(0, severity(r, "delay_cost")); // no waker is recorded
    Check.partition(r, Map.of("event-loop", 1000L, "client", 1000L, "http-client", 900L));

    // The loop's chain weighs its 100 of work; the client's its 500 of work and its read.
    List<AnalysisResult.CriticalThread> path = r.criticalPath().byThread();
    assertEquals(1, path.size(), path.toString());
    assertEquals("client", path.get(0).thread());
  }
}
