package dev.weft.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CallPathTest {
  @Test
  void locatedByItsInnermostFrameWithASourceFile() {
    CallPath p =
        CallPath.of(List.of("main @ App.java:10", "phase @ Solver.java:40-52", "(unknown task)"));
    assertEquals("Solver.java", p.file());
    assertEquals(40, p.line());
    assertEquals("Solver.java:40", p.location());
    assertEquals("main @ App.java:10 > phase @ Solver.java:40-52 > (unknown task)", p.text());
    assertEquals("", CallPath.of(List.of("main", "work")).location());
    assertEquals("Worker.java", CallPath.of(List.of("run @ Worker.java")).location());
    // A class name (no SourceFile attribute) is no file.
    assertEquals("", CallPath.of(List.of("run @ com.acme.Worker")).location());
  }
}
