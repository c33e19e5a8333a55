package dev.weft.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.trace.Event;
import dev.weft.trace.EventKind;
import dev.weft.trace.Field;
import dev.weft.trace.ThreadDef;
import dev.weft.trace.WaitKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JDK 21+ thread builders, {@code Thread.ofPlatform().start(task)} and {@code
 * Thread.ofVirtual().start(task)}, in a program compiled for 21 (the test applications are compiled
 * for 17, where the builders do not exist): each start is a thread_start wait followed by the
 * thread's THREAD_CREATE, and every platform thread a builder started has its THREAD_BEGIN and
 * THREAD_END, also the ones that began before the builder returned them.
 */
@Tag("child-jvm")
class BuilderStartIT {
  private static final int THREADS = 300;

  private static final String APP =
      """
      public class BuilderStarts {
        static final Object LOCK = new Object();
        static long sum;

        public static void main(String[] args) throws Exception {
          int n = Integer.parseInt(args[0]);
          for (int i = 0; i < n; i++) {
            Thread p = Thread.ofPlatform().name("plat-" + i).start(BuilderStarts::add);
            Thread v = Thread.ofVirtual().name("virt-" + i).start(BuilderStarts::add);
            p.join();
            v.join();
          }
          System.out.println("sum: " + sum);
        }

        static void add() {
          synchronized (LOCK) {
            sum++;
          }
        }
      }
      """;

  @TempDir Path tmp;

  @Test
  void builderStartsAreThreadStartWaitsAndTheirThreadsHaveLifetimes() throws Exception {
    Path jdk =
        ChildJvm.jdks().filter(j -> ChildJvm.featureVersion(j) >= 21).findFirst().orElse(null);
    assumeTrue(jdk != null, "no JDK 21 or later installed (weft.jdk25.home)");
    Path classes = compile(jdk);
    Path dir = tmp.resolve("trace");
    ChildJvm.Result plain =
        ChildJvm.run(
            ChildJvm.command(jdk, null, classes.toString(), "BuilderStarts", "" + THREADS), tmp);
    ChildJvm.Result traced =
        ChildJvm.run(
            ChildJvm.command(jdk, "out=" + dir, classes.toString(), "BuilderStarts", "" + THREADS),
            tmp);
    assertEquals(0, traced.exitCode(), traced.stderr());
    assertEquals(plain.stdout(), traced.stdout(), "the agent must not change the output");
    assertEquals("sum: " + 2 * THREADS, traced.stdout().trim());
    assertEquals("", traced.stderr());

    TraceFacts t = TraceFacts.read(dir);
    assertTrue(t.definitions.closedCleanly());
    assertEquals(List.of(), t.warnings);
    int main = -1;
    for (ThreadDef d : t.definitions.threads()) {
      if (d.name().equals("main")) {
        main = d.stream();
      }
    }
    // main: each start a thread_start wait, then the started thread's THREAD_CREATE in the wait
    List<Event> onMain = t.eventsByStream.get(main);
    long starts = 0;
    Set<Long> created = new HashSet<>();
    for (int i = 0; i < onMain.size(); i++) {
      Event e = onMain.get(i);
      if (e.kind() == EventKind.WAIT_ENTER && e.get(Field.WAIT_KIND) == WaitKind.THREAD_START) {
        starts++;
        Event create = onMain.get(i + 1);
        assertEquals(EventKind.THREAD_CREATE, create.kind(), "the start's thread: " + create);
        created.add(create.get(Field.THREAD));
        assertEquals(EventKind.WAIT_EXIT, onMain.get(i + 2).kind());
      }
    }
    assertEquals(2 * THREADS, starts);
    assertEquals(2 * THREADS, created.size());

    // every platform thread a builder started begins and ends, and no JDK thread is given a life
    int platform = 0;
    for (ThreadDef d : t.definitions.threads()) {
      List<Event> events = t.eventsByStream.getOrDefault(d.stream(), List.of());
      boolean begins = events.stream().anyMatch(e -> e.kind() == EventKind.THREAD_BEGIN);
      if (d.name().startsWith("plat-")) {
        platform++;
        assertTrue(created.contains(d.javaId()), d + " was announced");
        assertTrue(begins, d + " has its THREAD_BEGIN: " + events);
        assertEquals(EventKind.THREAD_END, events.get(events.size() - 1).kind(), d.toString());
      } else if (!d.isVirtual() && !d.isCarried() && d.pool() == 0) {
        // (a carrier's stream holds the virtual threads' lifetimes)
        assertTrue(!begins, "no lifetime for a thread no one started: " + d);
      }
    }
    assertEquals(THREADS, platform);
  }

  private Path compile(Path jdk) throws IOException, InterruptedException {
    Path src = tmp.resolve("src").resolve("BuilderStarts.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, APP);
    Path classes = tmp.resolve("classes");
    Process javac =
        new ProcessBuilder(
                jdk.resolve("bin").resolve("javac").toString(),
                "--release",
                "21",
                "-d",
                classes.toString(),
                src.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(javac.getInputStream().readAllBytes());
    assertEquals(0, javac.waitFor(), out);
    return classes;
  }
}
