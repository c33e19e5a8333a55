package dev.weft.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecorderLossesTest {
  @Test
  void eachCounterTheAgentWroteBecomesANote() {
    List<String> notes =
        RecorderLosses.notes(
            Map.of(
                "agent.virtual_thread_events_skipped", "12",
                "agent.events_dropped_undefined", "3",
                "agent.definitions_lost", "2",
                "agent.jvm_counts_missed", "5",
                "agent.weave_errors", "1",
                "agent.first_weave_error", "com.acme.Broken: VerifyError"));
    assertEquals(5, notes.size(), notes.toString());
    assertTrue(notes.get(0).startsWith("12 events of virtual threads were not recorded"));
    assertTrue(notes.get(1).startsWith("3 events were dropped"));
    assertTrue(notes.get(2).startsWith("2 region or object definitions"));
    assertTrue(notes.get(3).startsWith("5 threads ended before the JVM's own"), notes.get(3));
    assertTrue(notes.get(4).contains("(first: com.acme.Broken: VerifyError)"), notes.get(4));
  }

  @Test
  void nothingLostNoNote() {
    assertEquals(List.of(), RecorderLosses.notes(Map.of("agent.attached", "true")));
    assertEquals(
        List.of(),
        RecorderLosses.notes(
            Map.of("agent.virtual_thread_events_skipped", "0", "agent.weave_errors", "x")));
  }
}
