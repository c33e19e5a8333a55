package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.trace.ConstructKind;
import dev.weft.trace.Definitions;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceVerifier;
import dev.weft.trace.TraceWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder on a (simulated) full disk: one stream per thread, and every event accounted. */
class RecorderDiskFullTest {
  @TempDir Path tmp;

  private final List<String> problems = new CopyOnWriteArrayList<>();

  @AfterEach
  void uninstall() {
    WeftBridge.install(null);
  }

  private TraceWriter create(Path dir) throws Exception {
    return TraceWriter.create(
        dir, TraceWriter.Options.defaults().withProblemListener(problems::add));
  }

  @Test
  void threadsWhoseStreamsCannotBeOpenedKeepOneStreamEachAndCountTheirEvents() throws Exception {
    Path dir = tmp.resolve("t");
    TraceWriter writer = create(dir);
    RegionRegistry regions = new RegionRegistry(writer);
    int region = regions.register(ConstructKind.TRACED_METHOD, "m", "C", "m", "C.java", 1, 1);
    Recorder r = new Recorder(writer, regions, true, 0, null, false);
    WeftBridge.install(r);
    writer.simulateFreeSpace(60); // a THREAD definition or two, no event file
    int threads = 5;
    int calls = 1000;
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      all.add(
          new Thread(
              () -> {
                for (int i = 0; i < calls; i++) {
                  WeftBridge.enter(region);
                  WeftBridge.userRegionEnter(region);
                  WeftBridge.userRegionExit();
                  WeftBridge.exit(region);
                }
              },
              "worker-" + t));
    }
    for (Thread t : all) {
      t.start();
    }
    for (Thread t : all) {
      t.join();
    }
    r.close(Map.of());
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertFalse(d.cut());
      assertTrue(d.closedCleanly());
      Map<Long, Integer> streamsPerThread = new HashMap<>();
      for (ThreadDef th : d.threads()) {
        streamsPerThread.merge(th.javaId(), 1, Integer::sum);
      }
      for (Thread th : all) {
        assertEquals(1, streamsPerThread.get(th.getId()), th.getName() + ": one stream");
      }
      assertEquals(threads, d.threads().size());
      assertTrue(t.streamIds().isEmpty(), "no event file could be created");
      for (ThreadDef th : d.threads()) {
        assertEquals(4L * calls, d.drops().get(th.stream()), th.name() + ": every event counted");
      }
      TraceVerifier.VerifyReport report = TraceVerifier.verify(t);
      assertTrue(report.ok(), report.errors().toString());
    }
    assertEquals(1, problems.size(), problems.toString());
  }

  @Test
  void eventOfARegionThatCannotBeDefinedIsDroppedAndCounted() throws Exception {
    Path dir = tmp.resolve("t");
    TraceWriter writer = create(dir);
    RegionRegistry regions = new RegionRegistry(writer);
    int site = regions.registerSite(ConstructKind.USER_REGION, "C", "m", "C.java", 5);
    Recorder r = new Recorder(writer, regions, true, 0, null, false);
    WeftBridge.install(r);
    WeftBridge.userRegionEnter("before", site);
    WeftBridge.userRegionExit();
    writer.simulateFreeSpace(0);
    while (regions.definitionErrors() == 0) { // until the definitions' reserve is used up too
      regions.register(ConstructKind.USER_REGION, "filler", "C", "m", "C.java", 1, 1);
    }
    for (int i = 0; i < 10; i++) {
      WeftBridge.userRegionEnter("after-" + i, site); // cannot be defined: dropped, not retried
      WeftBridge.userRegionEnter("after-" + i, site);
      WeftBridge.userRegionExit();
      WeftBridge.userRegionExit();
    }
    WeftBridge.userRegionEnter("before", site); // defined: recorded
    WeftBridge.userRegionExit();
    r.close(Map.of());
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertFalse(d.cut());
      assertTrue(d.closedCleanly(), "the close part of the reserve");
      assertEquals("40", d.attributes().get("agent.events_dropped_undefined"));
      assertEquals("11", d.attributes().get("agent.definitions_lost"), "the filler and ten names");
      List<EventKind> kinds = new ArrayList<>();
      EventCursor c = t.events();
      while (c.next()) {
        kinds.add(c.kind());
      }
      assertEquals(
          List.of(EventKind.ENTER, EventKind.EXIT, EventKind.ENTER, EventKind.EXIT), kinds);
      TraceVerifier.VerifyReport report = TraceVerifier.verify(t);
      assertTrue(report.ok(), report.errors().toString());
    }
  }
}
