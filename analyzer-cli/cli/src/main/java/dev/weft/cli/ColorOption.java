package dev.weft.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The shared {@code --color auto|always|never} option. */
public final class ColorOption {

  /** When to colour the output. */
  public enum When {
    AUTO,
    ALWAYS,
    NEVER;

    @Override
    public String toString() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  @Option(
      names = "--color",
      paramLabel = "WHEN",
      description =
          "Colour the output: auto, always or never (default: ${DEFAULT-VALUE}; auto colours only"
              + " when stdout is a terminal and NO_COLOR is not set).")
  When when = When.AUTO;

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** The style to print with, after looking at the terminal and {@code NO_COLOR}. */
  Style style() {
    switch (when) {
      case ALWAYS:
        return Style.ANSI;
      case NEVER:
        return Style.PLAIN;
      default:
        WeftCommand root = WeftCommand.root(mixee);
        String noColor = root.env("NO_COLOR");
        return Style.of(root.stdoutIsTerminal() && (noColor == null || noColor.isEmpty()));
    }
  }
}
