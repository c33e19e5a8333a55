package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Reading Linux's {@code schedstat} of the calling thread. */
class OsThreadTimesTest {
  private static long[] parse(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    return OsThreadTimes.parse(b, b.length);
  }

  @Test
  void takesCpuAndRunQueueFromTheFirstTwoFields() {
    assertArrayEquals(new long[] {718037, 0}, parse("718037 0 1\n"));
    assertArrayEquals(new long[] {761293462, 288962659}, parse("761293462 288962659 109\n"));
  }

  @Test
  void refusesWhatIsNotTwoNumbers() {
    assertNull(parse(""));
    assertNull(parse("718037\n"));
    assertNull(parse("7a8 0 1\n"));
    assertNull(parse("-1 0 1\n"));
  }

  @Test
  void readsTheCallingThreadsOwnFigures() {
    if (!Files.isReadable(Path.of("/proc/thread-self/schedstat"))) {
      assertNull(OsThreadTimes.self(), "no /proc: no figures");
      return;
    }
    long[] before = OsThreadTimes.self();
    long x = 0;
    for (long end = System.nanoTime() + 20_000_000; System.nanoTime() < end; ) {
      x++;
    }
    long[] after = OsThreadTimes.self();
    assertTrue(x > 0 && after[0] - before[0] > 0, "20 ms of spinning took CPU time");
    assertTrue(after[1] >= before[1], "the run queue's time only grows");
  }

  /** A thread names its Linux thread id; another thread reads its figures by it. */
  @Test
  void anotherThreadReadsAThreadsFiguresByItsId() throws Exception {
    if (!Files.isReadable(Path.of("/proc/thread-self/schedstat"))) {
      assertEquals(-1, OsThreadTimes.selfTask(), "no /proc: no id");
      return;
    }
    long[] task = {0};
    long[] own = new long[2];
    CountDownLatch named = new CountDownLatch(1);
    CountDownLatch read = new CountDownLatch(1);
    Thread t =
        new Thread(
            () -> {
              task[0] = OsThreadTimes.selfTask();
              // 10 ms of its own CPU time, however long that takes on a busy host.
              long deadline = System.nanoTime() + 10_000_000_000L;
              while (OsThreadTimes.self()[0] < 10_000_000 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
              }
              named.countDown();
              try {
                read.await();
              } catch (InterruptedException e) {
                return;
              }
              long[] self = OsThreadTimes.self();
              own[0] = self[0];
              own[1] = self[1];
            });
    t.start();
    named.await();
    long[] byId = OsThreadTimes.ofTask(task[0]);
    read.countDown();
    t.join();
    assertTrue(task[0] > 0 && task[0] != OsThreadTimes.selfTask(), "its own id: " + task[0]);
    assertTrue(byId != null && byId[0] >= 10_000_000, "its 10 ms of CPU, read by its id");
    assertTrue(byId[0] <= own[0] && byId[1] <= own[1], "the same counters, read earlier");
  }
}
