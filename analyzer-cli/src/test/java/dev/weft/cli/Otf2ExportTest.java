package dev.weft.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Otf2ExportTest {
  @TempDir Path tmp;

  @BeforeEach
  void needsOtf2Print() {
    assumeTrue(Otf2Print.required(), "OTF2 tests switched off with -Dweft.otf2.tests=false");
  }

  @Test
  void otf2PrintReadsTheArchive() throws Exception {
    Path trace = TestTraces.sample(tmp.resolve("trace"));
    Path out = tmp.resolve("otf2");
    Cli.Result r = Cli.run("export", trace.toString(), "--format", "otf2", "-o", out.toString());
    assertEquals(0, r.exit(), r.toString());
    Otf2Print.Output p = Otf2Print.run(out.resolve("traces.otf2"));
    System.out.println(String.join("\n", p.lines()));
    System.out.println(p.err());
    assertEquals(0, p.exit(), p.err());
  }
}
