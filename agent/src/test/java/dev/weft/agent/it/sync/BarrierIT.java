package dev.weft.agent.it.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.it.TraceFacts;
import dev.weft.agentit.apps.sync.BarrierApp;
import dev.weft.trace.BarrierOutcome;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.ObjectDef;
import dev.weft.trace.RegionDef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Barriers with staggered arrivals ({@link BarrierApp}): generations and phases numbered, the last
 * arrival marked, nobody leaving a generation before its last arrival, and the outcomes of broken,
 * timed-out and interrupted waits.
 */
@Tag("child-jvm")
class BarrierIT {
  private static final Class<?> APP = BarrierApp.class;
  private static final int PARTIES = 3;

  @TempDir Path tmp;

  static List<Path> jdks() {
    return SyncTraces.jdks();
  }

  /** One stay at a barrier: BARRIER_ENTER and the BARRIER_EXIT after it, on one thread. */
  record Stay(
      String thread,
      int region,
      long object,
      long generation,
      long enter,
      long exit,
      long exitGeneration,
      int outcome) {}

  /** The stays of thread {@code name} (enter and exit events pair up in order). */
  private static List<Stay> stays(TraceFacts t, String name) {
    int stream = SyncTraces.stream(t, name);
    List<Stay> out = new ArrayList<>();
    Event enter = null;
    for (Event e : t.eventsByStream.get(stream)) {
      if (e.kind() == EventKind.BARRIER_ENTER) {
        assertEquals(null, enter, "barrier enters nest on " + name);
        enter = e;
      } else if (e.kind() == EventKind.BARRIER_EXIT) {
        assertTrue(enter != null, "exit without enter on " + name);
        assertEquals(enter.get(Field.OBJECT), e.get(Field.OBJECT));
        assertEquals(enter.get(Field.REGION), e.get(Field.REGION));
        out.add(
            new Stay(
                name,
                (int) e.get(Field.REGION),
                e.get(Field.OBJECT),
                enter.get(Field.GENERATION),
                enter.time(),
                e.time(),
                e.get(Field.GENERATION),
                (int) e.get(Field.OUTCOME)));
        enter = null;
      }
    }
    assertEquals(null, enter, "a barrier left open on " + name);
    return out;
  }

  private static void assertSite(
      TraceFacts t, Stay s, String name, ConstructKind kind, String marker) {
    RegionDef r = t.definitions.region(s.region());
    assertEquals(name, r.name());
    assertEquals(kind, r.kind());
    assertEquals("BarrierApp.java", r.file());
    assertEquals(SyncTraces.lineOf(APP, marker), r.firstLine(), r.toString());
  }

  @ParameterizedTest
  @MethodSource("jdks")
  void barriersRecordGenerationsLastArrivalsAndOutcomes(Path jdk) {
    TraceFacts t = SyncTraces.run(jdk, tmp, "", APP).trace();

    // CyclicBarrier: 3 generations numbered 0..2; party 2 arrives last in each.
    List<List<Stay>> cyclic = new ArrayList<>();
    for (int k = 0; k < PARTIES; k++) {
      List<Stay> s = stays(t, "cyclic-" + k);
      assertEquals(3, s.size());
      for (int g = 0; g < 3; g++) {
        Stay stay = s.get(g);
        assertSite(
            t, stay, "CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, "// cyclic await site");
        assertEquals(g, stay.generation());
        assertEquals(g, stay.exitGeneration());
        assertEquals(k == PARTIES - 1 ? BarrierOutcome.LAST : 0, stay.outcome(), stay.toString());
      }
      cyclic.add(s);
    }
    ObjectDef barrier = t.definitions.object(cyclic.get(0).get(0).object());
    assertEquals(ConstructKind.CYCLIC_BARRIER, barrier.kind());
    assertEquals(PARTIES, barrier.parties());
    assertEquals("java.util.concurrent.CyclicBarrier", barrier.className());
    assertGenerationsAreBarriers(cyclic, 3);

    // Phaser: 4 phases, the generation is the phase.
    List<List<Stay>> phaser = new ArrayList<>();
    for (int k = 0; k < PARTIES; k++) {
      List<Stay> s = stays(t, "phaser-" + k);
      assertEquals(4, s.size());
      for (int p = 0; p < 4; p++) {
        assertSite(
            t, s.get(p), "Phaser.arriveAndAwaitAdvance", ConstructKind.PHASER, "// phaser site");
        assertEquals(p, s.get(p).generation());
        assertEquals(0, s.get(p).outcome());
      }
      phaser.add(s);
    }
    ObjectDef phaserDef = t.definitions.object(phaser.get(0).get(0).object());
    assertEquals(ConstructKind.PHASER, phaserDef.kind());
    assertEquals(PARTIES, phaserDef.parties());
    assertGenerationsAreBarriers(phaser, 4);

    // CountDownLatch: the count-downs arrive, the last one opens; main waits for it.
    Stay await =
        stays(t, "main").stream()
            .filter(s -> t.definitions.region(s.region()).name().equals("CountDownLatch.await"))
            .findFirst()
            .orElseThrow();
    assertSite(
        t, await, "CountDownLatch.await", ConstructKind.COUNT_DOWN_LATCH, "// latch await site");
    assertEquals(0, await.generation());
    assertEquals(0, await.outcome());
    Stay last = null;
    for (int k = 0; k < PARTIES; k++) {
      List<Stay> s = stays(t, "counter-" + k);
      assertEquals(1, s.size());
      Stay countDown = s.get(0);
      assertSite(
          t,
          countDown,
          "CountDownLatch.countDown",
          ConstructKind.COUNT_DOWN_LATCH,
          "// count-down site");
      assertEquals(await.object(), countDown.object());
      assertEquals(0, countDown.generation());
      assertEquals(k == PARTIES - 1 ? BarrierOutcome.LAST : 0, countDown.outcome());
      if (k == PARTIES - 1) {
        last = countDown;
      }
    }
    assertTrue(await.exit() >= last.enter(), "the latch opens at its last count-down");
    ObjectDef latch = t.definitions.object(await.object());
    assertEquals(ConstructKind.COUNT_DOWN_LATCH, latch.kind());

    // A party timing out breaks the barrier for the one waiting.
    Stay broken = stays(t, "broken").get(0);
    Stay timedOut = stays(t, "timing-out").get(0);
    assertSite(
        t, broken, "CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, "// broken await site");
    assertSite(
        t, timedOut, "CyclicBarrier.await", ConstructKind.CYCLIC_BARRIER, "// timed await site");
    assertEquals(BarrierOutcome.BROKEN, broken.outcome());
    assertEquals(BarrierOutcome.TIMEOUT, timedOut.outcome());
    assertEquals(broken.generation(), timedOut.generation());
    assertTrue(timedOut.exit() - timedOut.enter() >= 100_000_000L * 98 / 100, "waited its timeout");

    // Latch awaits that end without the latch opening.
    List<Stay> mainStays = stays(t, "main");
    Stay timedAwait = mainStays.get(mainStays.size() - 1);
    assertEquals(BarrierOutcome.TIMEOUT, timedAwait.outcome());
    assertTrue(timedAwait.exit() - timedAwait.enter() >= 50_000_000L * 98 / 100);
    Stay interrupted = stays(t, "interrupted").get(0);
    assertSite(
        t,
        interrupted,
        "CountDownLatch.await",
        ConstructKind.COUNT_DOWN_LATCH,
        "// interrupted await site");
    assertEquals(BarrierOutcome.INTERRUPTED, interrupted.outcome());
  }

  /**
   * In every generation: all parties arrive once, nobody leaves before the last arrival, and the
   * party with the longest delay (the last one) arrives last.
   */
  private static void assertGenerationsAreBarriers(List<List<Stay>> byParty, int generations) {
    for (int g = 0; g < generations; g++) {
      long lastArrival = Long.MIN_VALUE;
      Stay latest = null;
      for (List<Stay> party : byParty) {
        Stay s = party.get(g);
        if (s.enter() > lastArrival) {
          lastArrival = s.enter();
          latest = s;
        }
      }
      assertEquals(byParty.get(PARTIES - 1).get(g), latest, "the most delayed party arrives last");
      for (List<Stay> party : byParty) {
        Stay s = party.get(g);
        assertTrue(s.exit() >= lastArrival, "left before the last arrival: " + s);
        assertEquals(byParty.get(0).get(g).object(), s.object());
      }
    }
  }
}
