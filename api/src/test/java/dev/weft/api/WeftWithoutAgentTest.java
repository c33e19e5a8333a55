package dev.weft.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

/** Without the agent every call is a harmless no-op. */
class WeftWithoutAgentTest {
  @Traced("traced")
  static int traced(int x) {
    return x + 1;
  }

  @Test
  void everythingIsANoOpWithoutTheAgent() {
    int sum = 0;
    try (Region outer = Weft.region("outer")) {
      assertNotNull(outer);
      try (Region inner = Weft.region(null)) {
        sum += traced(1);
      }
    }
    Weft.off();
    assertFalse(Weft.isRecording());
    Weft.on();
    assertFalse(Weft.isRecording());
    Weft.region("never closed"); // harmless too
    assertEquals(2, sum);
  }
}
