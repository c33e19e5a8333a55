package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Platform threads started after others ended are carried on the ended threads' streams (FORMAT.md,
 * "Hosted platform threads"): one file for a succession of threads, each read as its own.
 */
class HostedThreadTest {
  @TempDir Path tmp;

  /**
   * Thread "first" (Java id 11) runs 1..5 and ends; "second" (12) is hosted on its stream 10..15,
   * "third" (13, asking for a time before the host's last event) after it.
   */
  private Path write() throws Exception {
    Path dir = tmp.resolve("hosted");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_000, 1));
      w.defineRegion(new RegionDef(3, ConstructKind.MONITOR, "lock", "A", "run", "A.java", 9, 9));
      StreamWriter first = w.openStream(11, "first", 0, 0, 1);
      first.threadBegin(1);
      first.lockAcquired(2, 7, 0);
      first.lockReleased(3, 7);
      first.threadEnd(5);
      w.releaseStream(first);

      TraceWriter.Hosted second = w.openHosted(12, "second", ThreadDef.DAEMON, 0, 10);
      assertNotNull(second, "the ended thread's stream is idle");
      assertSame(first, second.host());
      assertEquals(2, second.stream());
      assertNull(w.openHosted(99, "none", 0, 0, 10), "one idle stream, taken");
      StreamWriter s = second.host();
      s.threadBegin(11);
      s.lockAcquired(12, 7, 0);
      s.lockReleased(13, 7);
      s.threadEnd(14);
      w.endHosted(second, 12, 15);

      TraceWriter.Hosted third = w.openHosted(13, "third", 0, 0, 12);
      assertSame(first, third.host());
      w.renameThread(third.stream(), 16, "third-renamed");
      third.host().threadBegin(17);
      third.host().threadEnd(18);
      w.endHosted(third, 13, 19);
    }
    return dir;
  }

  @Test
  void eachHostedThreadReadsAsAPlatformThreadOfItsOwn() throws Exception {
    Path dir = write();
    try (Stream<Path> files = Files.list(dir.resolve(TraceFiles.EVENTS_DIR))) {
      assertEquals(1, files.count(), "three threads, one event file");
    }
    try (Trace t = Trace.open(dir)) {
      Definitions d = t.definitions();
      assertEquals(3, d.threads().size());
      assertEquals(1, d.streamDefinitions().size());
      ThreadDef second = d.thread(2);
      assertTrue(second.isHosted() && second.isCarried(), second.toString());
      assertFalse(second.isVirtual());
      assertEquals(ThreadDef.DAEMON, second.flags() & ThreadDef.DAEMON);
      assertEquals("thread #12", second.unnamedLabel());
      assertEquals(2, d.carriedStream(12));
      assertEquals("third-renamed", d.thread(3).name());
      assertEquals(Trace.Status.COMPLETE, t.integrity().status());
      // The mounts and unmounts frame the hosted threads' stretches and are nobody's events; the
      // third thread's mount came after the host's last event, not at the earlier time it gave.
      assertEquals(
          List.of(
              "1:1:thread_begin",
              "2:1:lock_acquired",
              "3:1:lock_released",
              "5:1:thread_end",
              "11:2:thread_begin",
              "12:2:lock_acquired",
              "13:2:lock_released",
              "14:2:thread_end",
              "17:3:thread_begin",
              "18:3:thread_end"),
          Writes.eventLines(t));
      TraceVerifier.VerifyReport r = TraceVerifier.verify(t);
      assertTrue(r.ok(), r.errors().toString());
      assertEquals(List.of(), r.warnings());
      assertEquals(10, r.events());
    }
  }

  @Test
  void anythingElseAfterTheHostsEndIsStillDamage() throws Exception {
    Path dir = tmp.resolve("late");
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_000, 1));
      StreamWriter a = w.openStream(11, "a", 0, 0, 1);
      a.threadBegin(1);
      a.threadEnd(2);
      a.vthreadMount(3, 42); // not a hosted thread's: no definition says so
      a.threadBegin(4);
    }
    try (Trace t = Trace.openSalvaging(dir)) {
      Writes.eventLines(t);
      assertEquals(Trace.Status.PARTIAL, t.integrity().status());
      assertTrue(
          t.integrity().summary().contains("vthread_mount after thread_end"),
          t.integrity().summary());
    }
  }

  @Test
  void atMostSoManyEndedStreamsWaitForAThreadTheRestAreFinished() throws Exception {
    Path dir = tmp.resolve("many");
    int threads = TraceWriter.MAX_IDLE_HOSTS + 5;
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.defineClock(new ClockDef(0, 1_000, 1));
      List<StreamWriter> all = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        StreamWriter s = w.openStream(100 + i, "t" + i, 0, 0, i);
        s.threadBegin(i);
        all.add(s);
      }
      for (StreamWriter s : all) {
        s.threadEnd(1_000);
        w.releaseStream(s);
      }
      int hosted = 0;
      while (w.openHosted(1_000 + hosted, "h" + hosted, 0, 0, 2_000) != null) {
        hosted++;
      }
      assertEquals(TraceWriter.MAX_IDLE_HOSTS, hosted);
    }
    try (Trace t = Trace.open(dir)) {
      assertEquals(Trace.Status.COMPLETE, t.integrity().status());
      assertTrue(TraceVerifier.verify(t).ok());
      assertEquals(threads + TraceWriter.MAX_IDLE_HOSTS, t.definitions().threads().size());
    }
  }

  @Test
  void aClosedWriterHostsNoOne() throws IOException {
    TraceWriter w = TraceWriter.create(tmp.resolve("closed"), TraceWriter.Options.defaults());
    StreamWriter s = w.openStream(11, "a", 0, 0, 1);
    s.threadEnd(2);
    w.close(3);
    w.releaseStream(s);
    assertNull(w.openHosted(12, "b", 0, 0, 4));
  }
}
