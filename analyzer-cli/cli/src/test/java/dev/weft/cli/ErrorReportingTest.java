package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What weft says when it fails in a way the user can act on. */
class ErrorReportingTest {
  @Test
  void runningOutOfHeapSaysHowToGiveMore() {
    String m = ErrorReporting.message(new OutOfMemoryError("Java heap space"));
    assertTrue(m.startsWith("out of memory ("), m);
    assertTrue(m.contains("WEFT_JAVA_OPTS=-Xmx"), m);
    assertEquals(1, m.lines().count(), m);
    assertEquals(ExitCodes.INTERNAL_ERROR, ErrorReporting.exitCode(new OutOfMemoryError()));
  }
}
