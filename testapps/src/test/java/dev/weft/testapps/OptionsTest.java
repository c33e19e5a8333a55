package dev.weft.testapps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class OptionsTest {
  private static final List<OptionSpec> SPECS =
      List.of(
          OptionSpec.integer("threads", 4, 1, 64, "threads"),
          OptionSpec.choice("lock", "fair", List.of("fair", "unfair"), "lock"),
          OptionSpec.integerList("teams", "1,2", 1, 8, "teams"));

  @Test
  void defaultsApplyWhenNothingIsGiven() throws Exception {
    Options options = Options.parse(SPECS, List.of());
    assertEquals(4, options.intValue("threads"));
    assertEquals("fair", options.choice("lock"));
    assertEquals(List.of(1L, 2L), options.longList("teams"));
    assertFalse(options.cpu());
    assertEquals(
        List.of("threads", "lock", "teams", "spin-per-ms", "cpu"),
        List.copyOf(options.asParams().keySet()));
  }

  @Test
  void parsesSeparateAndInlineValuesAndTheCpuSwitch() throws Exception {
    Options options =
        Options.parse(SPECS, List.of("--threads", "7", "--lock=unfair", "--cpu", "--teams", "3"));
    assertEquals(7, options.intValue("threads"));
    assertEquals("unfair", options.choice("lock"));
    assertEquals(List.of(3L), options.longList("teams"));
    assertTrue(options.cpu());
  }

  @Test
  void rejectsBadUsageWithAMessageNamingTheProblem() {
    assertMessage("unknown option --thread", "--thread", "3");
    assertMessage("option --threads needs a value", "--threads");
    assertMessage("option --threads: 'x' is not an integer", "--threads", "x");
    assertMessage("option --threads: 0 is outside 1..64", "--threads", "0");
    assertMessage("option --lock: 'other' is not one of fair, unfair", "--lock", "other");
    assertMessage("option --teams: 9 is outside 1..8", "--teams", "1,9");
    assertMessage("unexpected argument 'stray'", "stray");
  }

  private static void assertMessage(String message, String... args) {
    UsageException e =
        assertThrows(UsageException.class, () -> Options.parse(SPECS, List.of(args)));
    assertEquals(message, e.getMessage());
  }
}
