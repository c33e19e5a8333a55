package dev.weft.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The shared {@code --label KEY=VALUE} option of the commands that append runs to a store. */
public final class StoreOptions {
  @Option(
      names = "--label",
      paramLabel = "KEY=VALUE",
      description =
          "A label stored with the run (repeatable), e.g. --label commit=$(git rev-parse HEAD)"
              + " --label build=42; the trace's own attributes are stored too.")
  Map<String, String> labels = new LinkedHashMap<>();

  Map<String, String> labels() {
    return labels == null ? Map.of() : labels;
  }
}
