package dev.weft.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows of call paths shown by their innermost frames never read alike when the paths differ. */
class DistinctLabelsTest {
  @Test
  void pathsEndingAlikeShowFramesUntilTheyDiffer() {
    List<String> labels =
        TextReport.distinctLabels(
            List.of(
                List.of("main", "x", "a", "submit"),
                List.of("main", "y", "a", "submit"),
                List.of("main", "b", "submit")),
            List.of("pool", "pool", "pool"));
    assertEquals(List.of("… › x › a › submit", "… › y › a › submit", "… › b › submit"), labels);
  }

  @Test
  void rowsOfDifferentPoolsOrOfTheWholePathStayAsTheyAre() {
    List<String> labels =
        TextReport.distinctLabels(
            List.of(List.of("x", "a", "submit"), List.of("y", "a", "submit"), List.of("a", "b")),
            List.of("pool 1", "pool 2", "pool 1"));
    assertEquals(List.of("… › a › submit", "… › a › submit", "a › b"), labels);
    // The same path twice (as two pools' rows of one path are) cannot be told apart by frames.
    assertEquals(
        List.of("a › submit", "a › submit"),
        TextReport.distinctLabels(
            List.of(List.of("a", "submit"), List.of("a", "submit")), List.of("p", "p")));
  }
}
