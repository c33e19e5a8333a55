package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
