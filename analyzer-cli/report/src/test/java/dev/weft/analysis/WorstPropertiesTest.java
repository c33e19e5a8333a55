package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.report.TextReport;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.StreamWriter;
import dev.weft.trace.WaitKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text report's "Worst properties": threads ready for work that had not come (an event loop in
 * select, a pool worker waiting for its next task) rank after the waits that hold work up, however
 * long they were idle.
 */
class WorstPropertiesTest {
  @TempDir Path tmp;

  @Test
  void idleLoopsAndWorkersRankAfterTheWaitsThatHoldWorkUp() {
    TraceFixture f = TraceFixture.create(tmp.resolve("t"));
    int select = f.region("Selector.select", ConstructKind.SELECTOR, 60);
    int poll = f.region("BlockingQueue.poll", ConstructKind.BLOCKING_QUEUE, 61);
    int read = f.region("Socket read", ConstructKind.SOCKET, 62);
    int sleep = f.region("Object.wait", ConstructKind.MONITOR, 63);
    StreamWriter loop = f.thread("event-loop", 0);
    StreamWriter worker = f.thread("worker", 0);
    StreamWriter client = f.thread("client", 0);
    StreamWriter waiter = f.thread("waiter", 0);
    loop.waitEnter(0, select, WaitKind.SELECT); // idle 900
    loop.waitExit(900, select);
    worker.waitEnter(0, poll, WaitKind.NEXT_TASK); // idle 800
    worker.waitExit(800, poll);
    client.waitEnter(100, read, WaitKind.SOCKET_READ); // held up 300
    client.waitExit(400, read);
    waiter.waitEnter(100, sleep, WaitKind.OBJECT_WAIT); // held up 200
    waiter.waitExit(300, sleep);
    for (StreamWriter s : List.of(loop, worker, client, waiter)) {
      s.threadEnd(1000);
    }
    AnalysisResult r = Analyzer.analyze(f.close(1000));

    assertEquals(List.of("io_wait", "condition_wait", "network_idle"), worst(r));
  }

  /** The ids under "Worst properties", in the report's order. */
  private static List<String> worst(AnalysisResult r) {
    String text = TextReport.render(r);
    List<String> ids = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^== (\\w+) ").matcher(text);
    while (m.find()) {
      ids.add(m.group(1));
    }
    return ids;
  }
}
