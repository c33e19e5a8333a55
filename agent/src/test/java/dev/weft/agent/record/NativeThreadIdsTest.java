package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class NativeThreadIdsTest {
  @Test
  void readsJdk17AndJdk25LinesAndNamesWithQuotes() {
    String dump =
        "2026-11-29 06:50:01\n"
            + "Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode):\n\n"
            + "\"main\" #1 prio=5 os_prio=0 cpu=417.51ms elapsed=3.22s tid=0x00007f77b4018020"
            + " nid=0x6895 waiting on condition  [0x00007f77b8d1e000]\n"
            + "   java.lang.Thread.State: TIMED_WAITING (sleeping)\n"
            + "\tat java.lang.Thread.sleep(java.base@17.0.15/Native Method)\n\n"
            + "\"worker \"quoted\" #7 nid=0x1\" #12 daemon prio=5 os_prio=0 cpu=0.1ms"
            + " elapsed=3.1s tid=0x00007f77b4100130 nid=0x689e in Object.wait()  [0x0]\n"
            + "\"pool-1-thread-1\" #31 [26816] prio=5 os_prio=0 cpu=457.79ms elapsed=3.19s"
            + " tid=0x00007fb0ac02aac0 nid=26816 runnable  [0x00007fb0b09fe000]\n"
            + "\"G1 Conc#0\" os_prio=0 cpu=0.05ms elapsed=3.2s tid=0x00007f nid=0x6899 runnable\n"
            + "\"VM Thread\" os_prio=0 cpu=2.1ms elapsed=3.2s tid=0x00007f nid=26820 runnable\n";
    Map<Long, Long> ids = NativeThreadIds.parse(dump);
    assertEquals(Map.of(1L, 0x6895L, 12L, 0x689eL, 31L, 26816L), ids);
  }

  @Test
  void namesTheIdsOfThisJvmsThreads() throws Exception {
    if (!Files.isReadable(Path.of("/proc/thread-self"))) {
      return; // no Linux thread ids to compare with
    }
    CountDownLatch named = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    long[] own = new long[1];
    Thread t =
        new Thread(
            () -> {
              own[0] = OsThreadTimes.selfTask();
              named.countDown();
              try {
                done.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "\"named\" #99 nid=0x2");
    t.start();
    try {
      named.await();
      Map<Long, Long> ids = NativeThreadIds.ofLiveThreads();
      assertTrue(own[0] > 0);
      assertEquals(own[0], ids.get(t.getId()), ids::toString);
      assertEquals(OsThreadTimes.selfTask(), ids.get(Thread.currentThread().getId()));
    } finally {
      done.countDown();
      t.join();
    }
  }
}
