package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void parsesEveryUnitPeopleType() {
    assertEquals(42, Durations.parse("42"));
    assertEquals(500, Durations.parse("500ns"));
    assertEquals(200_000, Durations.parse("200us"));
    assertEquals(200_000, Durations.parse("200µs"));
    assertEquals(1_500_000, Durations.parse("1.5ms"));
    assertEquals(1_500_000_000L, Durations.parse("1.5s"));
    assertEquals(1_500_000_000L, Durations.parse("1.5 s"));
    assertEquals(120_000_000_000L, Durations.parse("2m"));
    assertEquals(90_000_000_000L, Durations.parse("1.5min"));
    assertEquals(3_600_000_000_000L, Durations.parse("1h"));
  }

  @Test
  void rejectsWhatIsNoDuration() {
    for (String bad : new String[] {"soon", "-1s", "1x", "", "1e300h", "m"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Durations.parse(bad), bad);
      assertEquals(
          "'" + bad + "' is not a duration (e.g. 1500000, 1.5ms, 200us, 2s, 2m, 1h)",
          e.getMessage());
    }
  }
}
