package dev.weft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AgentOptionsTest {
  private static AgentOptions parse(String args) throws OptionException {
    return AgentOptions.parse(args, Map.of(), Map.of());
  }

  @Test
  void defaultsWithoutAnyOption() throws OptionException {
    AgentOptions o = parse(null);
    assertNull(o.out());
    assertEquals(EnumSet.allOf(Family.class), o.families());
    assertEquals(4L << 20, o.buffer());
    assertEquals(0, o.maxSize());
    assertTrue(o.startOn());
    assertFalse(o.aggregateTasks());
    assertTrue(o.filter().accepts("com/acme/Foo"));
  }

  @Test
  void runningClassesAreWovenUnlessAttachSkipRunningIsTrue() throws OptionException {
    assertFalse(parse(null).skipRunning());
    assertFalse(parse("attach.skip_running=false").skipRunning());
    assertTrue(parse("attach.skip_running=true").skipRunning());
    assertTrue(
        AgentOptions.parse("", Map.of(), Map.of("WEFT_ATTACH_SKIP_RUNNING", "true")).skipRunning());
    OptionException e = assertThrows(OptionException.class, () -> parse("attach.skip_running=yes"));
    assertEquals("attach.skip_running=yes: must be true or false", e.getMessage());
  }

  @Test
  void weavingCodeIsLeftToC1UnlessAnyCompilerIsAsked() throws OptionException {
    assertTrue(parse(null).weaverC1Only());
    assertTrue(parse("weaver.jit=c1").weaverC1Only());
    assertFalse(parse("weaver.jit=any").weaverC1Only());
    assertFalse(AgentOptions.parse("", Map.of(), Map.of("WEFT_WEAVER_JIT", "any")).weaverC1Only());
    OptionException e = assertThrows(OptionException.class, () -> parse("weaver.jit=c2"));
    assertEquals("weaver.jit=c2: must be c1 or any", e.getMessage());
  }

  @Test
  void tasksAreRecordedOneByOneOrAggregated() throws OptionException {
    assertFalse(parse("tasks=all").aggregateTasks());
    assertTrue(parse("tasks=aggregate").aggregateTasks());
    assertTrue(
        AgentOptions.parse("", Map.of("weft.tasks", "aggregate"), Map.of()).aggregateTasks());
  }

  @Test
  void agentArgumentsBeatPropertiesWhichBeatEnvironment() throws OptionException {
    Map<String, String> env =
        Map.of("WEFT_OUT", "from-env", "WEFT_MAXSIZE", "1m", "WEFT_START", "off");
    Map<String, String> props = Map.of("weft.out", "from-prop", "weft.maxsize", "2m");
    AgentOptions o = AgentOptions.parse("out=from-args", props, env);
    assertEquals(Path.of("from-args"), o.out());
    assertEquals(2L << 20, o.maxSize());
    assertFalse(o.startOn());
    assertEquals(Path.of("from-prop"), AgentOptions.parse("", props, env).out());
  }

  @Test
  void itemsWithoutEqualsContinueTheListBeforeThem() throws OptionException {
    AgentOptions o = parse("constructs=-locks,-barriers,include=com.acme.*,org.shop.Cart,out=t");
    assertEquals(EnumSet.complementOf(EnumSet.of(Family.LOCKS, Family.BARRIERS)), o.families());
    assertEquals(List.of("com.acme.*", "org.shop.Cart"), o.filter().include());
    assertEquals(Path.of("t"), o.out());
  }

  @Test
  void constructListsSelectOrChange() throws OptionException {
    assertEquals(
        EnumSet.of(Family.REGIONS, Family.FORKJOIN),
        parse("constructs=regions,forkjoin").families());
    assertEquals(EnumSet.of(Family.LOCKS), parse("constructs=none,+locks").families());
    assertEquals(EnumSet.allOf(Family.class), parse("constructs=all").families());
  }

  @Test
  void classFilterMatchesPackagesClassesAndNestedClasses() throws OptionException {
    ClassFilter f =
        ClassFilter.of(List.of("com.acme.*", "org.shop.Cart"), List.of("com.acme.gen.*"));
    assertTrue(f.accepts("com/acme/Foo"));
    assertTrue(f.accepts("com/acme/sub/Bar$1"));
    assertTrue(f.accepts("org/shop/Cart"));
    assertTrue(f.accepts("org/shop/Cart$Line"));
    assertFalse(f.accepts("org/shop/CartView"));
    assertFalse(f.accepts("com/acme/gen/Stub"));
    assertFalse(f.accepts("com/acmeplus/Foo"));
  }

  @Test
  void sizesTakeBinarySuffixes() throws OptionException {
    assertEquals(512L << 10, parse("maxsize=512k").maxSize());
    assertEquals(3L << 30, parse("maxsize=3G").maxSize());
    assertEquals(64L << 10, parse("buffer=64k").buffer());
  }

  @Test
  void durationsTakeUnits() throws OptionException {
    assertEquals(0, parse(null).durationMillis());
    assertEquals(0, parse("duration=0").durationMillis());
    assertEquals(500, parse("duration=500ms").durationMillis());
    assertEquals(30_000, parse("duration=30s").durationMillis());
    assertEquals(120_000, parse("duration=2m").durationMillis());
    assertEquals(3_600_000, parse("duration=1H").durationMillis());
    assertMessage("duration=30", "not a duration");
    assertMessage("duration=-1s", "not a duration");
    assertMessage("duration=soon", "not a duration");
  }

  @Test
  void badInputIsOneLineNamingTheProblem() {
    assertMessage("bogus=1", "unknown option 'bogus'");
    assertMessage("out=a,out=b", "option 'out' given twice");
    assertMessage("out=a,stray", "unknown option 'stray'");
    assertMessage("constructs=-sockets", "unknown family 'sockets'");
    assertMessage("constructs=-locks,all", "'all' may only come first");
    assertMessage("buffer=3000", "power of two");
    assertMessage("buffer=2g", "power of two");
    assertMessage("maxsize=-1", "not a size");
    assertMessage("maxsize=big", "not a size");
    assertMessage("start=maybe", "must be on or off");
    assertMessage("tasks=some", "must be all or aggregate");
    assertMessage("include=com..acme", "not a class pattern");
    assertMessage("test.fail=0", "positive number");
    assertMessage("out=", "needs a directory");
  }

  private static void assertMessage(String args, String expected) {
    OptionException e = assertThrows(OptionException.class, () -> parse(args));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertFalse(e.getMessage().contains("\n"), "one line");
  }
}
