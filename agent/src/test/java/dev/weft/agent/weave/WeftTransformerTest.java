package dev.weft.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.agent.config.AgentOptions;
import dev.weft.agent.config.Family;
import dev.weft.agent.record.Recorder;
import dev.weft.agent.record.RegionRegistry;
import dev.weft.trace.TraceWriter;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassVisitor;

/** Routing, filtering and error containment of the transformer, with stand-in instrumentations. */
class WeftTransformerTest {
  private static final ClassLoader APP = WeftTransformerTest.class.getClassLoader();

  @TempDir Path tmp;
  private TraceWriter writer;
  private RegionRegistry regions;
  private Recorder recorder;

  @BeforeEach
  void open() throws Exception {
    writer = TraceWriter.create(tmp.resolve("t"), TraceWriter.Options.defaults());
    regions = new RegionRegistry(writer);
    recorder = new Recorder(writer, regions, true, 0, null, false);
  }

  @AfterEach
  void close() {
    recorder.close(Map.of());
  }

  /** Marks every offered application class changed and says which it saw. */
  private static class Marker implements ConstructInstrumentation {
    final List<String> seen = new ArrayList<>();
    final Family family;
    final boolean honoursFilter;

    Marker(Family family, boolean honoursFilter) {
      this.family = family;
      this.honoursFilter = honoursFilter;
    }

    @Override
    public Family family() {
      return family;
    }

    @Override
    public List<String> applicationHints() {
      return List.of("java/lang/IllegalStateException");
    }

    @Override
    public boolean honoursClassFilter() {
      return honoursFilter;
    }

    @Override
    public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
      seen.add(target.internalName());
      target.changed();
      return next;
    }
  }

  private static byte[] sampleBytes() throws Exception {
    try (InputStream in = Sample.class.getResourceAsStream("Sample.class")) {
      return in.readAllBytes();
    }
  }

  private WeftTransformer transformer(String args, ConstructInstrumentation... all)
      throws Exception {
    return new WeftTransformer(
        List.of(all), AgentOptions.parse(args, Map.of(), Map.of()), regions, recorder);
  }

  @Test
  void applicationClassesNeedAHintAndPassTheFilter() throws Exception {
    Marker filtered = new Marker(Family.MONITORS, true);
    Marker explicit = new Marker(Family.REGIONS, false);
    WeftTransformer t = transformer("exclude=com.acme.*", filtered, explicit);
    byte[] sample = sampleBytes(); // mentions IllegalStateException

    assertNotNull(t.transform(APP, "org/shop/Sample", null, null, sample));
    assertEquals(List.of("org/shop/Sample"), filtered.seen);
    assertNotNull(t.transform(APP, "com/acme/Sample", null, null, sample));
    assertEquals(List.of("org/shop/Sample"), filtered.seen, "excluded for filtered families");
    assertEquals(List.of("org/shop/Sample", "com/acme/Sample"), explicit.seen);
    assertTrue(t.wovenClassNames().containsAll(Set.of("org/shop/Sample", "com/acme/Sample")));

    byte[] noHint = "class file without the hint".getBytes();
    assertNull(t.transform(APP, "org/shop/Other", null, null, noHint), "not even parsed");
    assertEquals(0, t.errors());
  }

  /**
   * Hints are searched in the class file's bytes read as Latin-1 characters: a non-ASCII hint would
   * be found by its UTF-8 bytes nowhere, so the transformer refuses it.
   */
  @Test
  void hintsAreFoundAsBytesAndMustBeAscii() throws Exception {
    Marker jdkType =
        new Marker(Family.MONITORS, true) {
          @Override
          public List<String> applicationHints() {
            return List.of("no such hint", "java/lang/IllegalStateException");
          }
        };
    WeftTransformer t = transformer("", jdkType);
    assertNotNull(t.transform(APP, "org/shop/Sample", null, null, sampleBytes()), "second hint");
    // Not a class file: offered to the family (the hint is there, among non-ASCII bytes), it
    // fails to parse, which the transformer counts as an error and leaves alone.
    byte[] latin = "\u00e9t\u00e9 java/lang/IllegalStateException".getBytes("ISO-8859-1");
    assertNull(t.transform(APP, "org/shop/Other", null, null, latin));
    assertEquals(1, t.errors(), "the hint was found");
    assertNull(t.transform(APP, "org/shop/Third", null, null, "\u00e9t\u00e9".getBytes("UTF-8")));
    assertEquals(1, t.errors(), "no hint: not offered");

    Marker accented =
        new Marker(Family.MONITORS, true) {
          @Override
          public List<String> applicationHints() {
            return List.of("\u00e9t\u00e9");
          }
        };
    assertThrows(IllegalArgumentException.class, () -> transformer("", accented));
  }

  @Test
  void jdkAndAgentClassesAreNeverWovenAsApplicationClasses() throws Exception {
    Marker m = new Marker(Family.MONITORS, true);
    WeftTransformer t = transformer("", m);
    byte[] sample = sampleBytes();
    assertNull(t.transform(null, "java/util/Sample", null, null, sample), "bootstrap loader");
    assertNull(t.transform(APP, "dev/weft/agent/record/Sample", null, null, sample), "agent");
    assertNull(t.transform(APP, "jdk/internal/Sample", null, null, sample));
    assertNull(t.transform(APP, "org/shop/Sample$$Lambda$12", null, null, sample));
    assertEquals(List.of(), m.seen);
  }

  @Test
  void disabledFamiliesAreNotAsked() throws Exception {
    Marker m = new Marker(Family.LOCKS, true);
    WeftTransformer t = transformer("constructs=-locks", m);
    assertNull(t.transform(APP, "org/shop/Sample", null, null, sampleBytes()));
    assertEquals(List.of(), m.seen);
  }

  @Test
  void jdkClassesGoToTheFamiliesThatNameThem() throws Exception {
    ConstructInstrumentation jdk =
        new ConstructInstrumentation() {
          @Override
          public Family family() {
            return Family.LOCKS;
          }

          @Override
          public Set<String> jdkClasses() {
            return Set.of("java/util/concurrent/locks/ReentrantLock");
          }

          @Override
          public byte[] transformJdkClass(WeaveTarget target) {
            return new byte[] {1, 2, 3};
          }
        };
    WeftTransformer t = transformer("", jdk);
    byte[] out =
        t.transform(null, "java/util/concurrent/locks/ReentrantLock", null, null, new byte[0]);
    assertEquals(3, out.length);
    assertNull(
        t.transform(null, "java/util/concurrent/locks/StampedLock", null, null, new byte[0]));
    assertNull(
        t.transform(APP, "java/util/concurrent/locks/ReentrantLock", null, null, new byte[0]),
        "a class of that name from an application loader is not the JDK's");
  }

  @Test
  void weavingErrorsAreCountedAndLeaveTheClassUnchanged() throws Exception {
    ConstructInstrumentation broken =
        new Marker(Family.MONITORS, true) {
          @Override
          public ClassVisitor visitApplicationClass(ClassVisitor next, WeaveTarget target) {
            throw new IllegalStateException("broken instrumentation");
          }
        };
    WeftTransformer t = transformer("", broken);
    assertNull(t.transform(APP, "org/shop/Sample", null, null, sampleBytes()));
    assertNull(t.transform(APP, "org/shop/Sample2", null, null, sampleBytes()));
    assertEquals(2, t.errors());
    assertEquals("broken instrumentation", t.firstError().getMessage());
  }

  @Test
  void deactivatedTransformerChangesNothing() throws Exception {
    Marker m = new Marker(Family.MONITORS, true);
    WeftTransformer t = transformer("", m);
    t.deactivate();
    assertNull(t.transform(APP, "org/shop/Sample", null, null, sampleBytes()));
    assertEquals(List.of(), m.seen);
  }
}
