package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.bridge.WeftBridge;
import dev.weft.trace.Event;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder in-process, behind the (unshaded) bridge. */
class RecorderTest {
  @TempDir Path tmp;

  @AfterEach
  void uninstall() {
    WeftBridge.install(null);
  }

  private List<Event> events(Path dir) {
    List<Event> out = new ArrayList<>();
    try (Trace t = Trace.open(dir)) {
      EventCursor c = t.events();
      while (c.next()) {
        out.add(c.snapshot());
      }
    }
    return out;
  }

  @Test
  void whatTheRecorderCausesIsNotRecorded() throws Exception {
    Path dir = tmp.resolve("t");
    AtomicInteger nested = new AtomicInteger();
    // The listener runs inside the recorder (the size limit is hit while writing an event) or on
    // the writer's own thread, and raises an event itself, as taking an instrumented lock would.
    TraceWriter writer =
        TraceWriter.create(
            dir,
            TraceWriter.Options.defaults()
                .withWindows(4096, 4096)
                .withMaxBytes(8192)
                .withProblemListener(
                    problem -> {
                      nested.incrementAndGet();
                      WeftBridge.enter(99);
                    }));
    Recorder r = new Recorder(writer, new RegionRegistry(writer), true, 0, null);
    r.ignore(writer.backgroundThread()); // the limit may also be hit there, as the agent does
    WeftBridge.install(r);
    for (int i = 0; i < 10_000; i++) {
      WeftBridge.enter(1);
      WeftBridge.exit(1);
    }
    r.close(Map.of());
    assertEquals(1, nested.get(), "the size limit was reached inside the recorder");
    List<Event> events = events(dir);
    assertTrue(events.size() > 100);
    assertTrue(events.stream().noneMatch(e -> e.kind() == EventKind.ENTER && e.field(0) == 99));
  }

  @Test
  void userRegionsStayBalancedAcrossOnAndOff() throws Exception {
    Path dir = tmp.resolve("t");
    TraceWriter writer = TraceWriter.create(dir, TraceWriter.Options.defaults());
    Recorder r = new Recorder(writer, new RegionRegistry(writer), true, 0, null);
    WeftBridge.install(r);
    WeftBridge.userRegionExit(); // nothing open: nothing happens
    WeftBridge.userRegionEnter(1);
    WeftBridge.measurementOff();
    WeftBridge.userRegionEnter(2); // not recorded, and so its exit is not either
    WeftBridge.measurementOn();
    WeftBridge.userRegionExit(); // exits 2: nothing recorded
    WeftBridge.userRegionExit(); // exits 1
    r.close(Map.of());
    List<String> seen = new ArrayList<>();
    for (Event e : events(dir)) {
      seen.add(e.kind().id() + (e.kind().fieldCount() > 0 ? " " + e.field(0) : ""));
    }
    assertEquals(List.of("enter 1", "measurement_off", "measurement_on", "exit 1"), seen);
    assertFalse(r.isRecording());
  }

  @Test
  void aFailingRecorderIsUninstalledAndClosesTheTrace() throws Exception {
    Path dir = tmp.resolve("t");
    TraceWriter writer = TraceWriter.create(dir, TraceWriter.Options.defaults());
    Recorder r = new Recorder(writer, new RegionRegistry(writer), true, 3, null);
    WeftBridge.install(r);
    for (int i = 0; i < 5; i++) {
      WeftBridge.enter(1); // the third throws inside the recorder; the bridge swallows it
    }
    assertNull(WeftBridge.installed());
    assertTrue(r.isClosed());
    try (Trace t = Trace.open(dir)) {
      assertTrue(t.definitions().closedCleanly());
      assertTrue(t.definitions().attributes().get("agent.stopped_by").contains("test.fail=3"));
    }
    assertEquals(2, events(dir).size());
  }
}
