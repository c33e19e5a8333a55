package dev.weft.agent.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.weft.trace.ConstructKind;
import dev.weft.trace.RegionDef;
import dev.weft.trace.Trace;
import dev.weft.trace.TraceWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegionRegistryTest {
  @TempDir Path tmp;

  @Test
  void regionsAreDefinedInTheTraceWithTheirSite() throws Exception {
    Path dir = tmp.resolve("t");
    int fixed;
    int a;
    int b;
    int overflow;
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      RegionRegistry r = new RegionRegistry(w);
      fixed =
          r.register(ConstructKind.USER_REGION, "load", "com.acme.App", "main", "App.java", 7, 7);
      int site = r.registerSite(ConstructKind.USER_REGION, "com.acme.App", "run", "App.java", 12);
      a = r.regionAt(site, "item-a");
      b = r.regionAt(site, "item-b");
      assertEquals(a, r.regionAt(site, new String("item-a")), "same name, same region");
      assertNotEquals(a, b);
      for (int i = 0; i < RegionRegistry.MAX_NAMES_PER_SITE + 50; i++) {
        r.regionAt(site, "n" + i);
      }
      overflow = r.regionAt(site, "one more");
      assertEquals(overflow, r.regionAt(site, "and another"));
      assertEquals(ConstructKind.USER_REGION, r.kind(fixed));
      assertEquals(ConstructKind.UNKNOWN, r.kind(999_999));
      assertEquals(0, r.regionAt(12345, "no such site"));
    }
    try (Trace t = Trace.open(dir)) {
      RegionDef load = t.definitions().region(fixed);
      assertEquals("App.java:7", load.location());
      assertEquals("main", load.method());
      RegionDef itemB = t.definitions().region(b);
      assertEquals("item-b", itemB.name());
      assertEquals("run", itemB.method());
      assertEquals(12, itemB.firstLine());
      assertEquals(RegionRegistry.OVERFLOW_NAME, t.definitions().region(overflow).name());
      assertEquals(RegionRegistry.MAX_NAMES_PER_SITE + 2, t.definitions().regions().size());
    }
  }
}
