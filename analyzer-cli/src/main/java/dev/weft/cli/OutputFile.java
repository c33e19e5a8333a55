package dev.weft.cli;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The shared {@code -o/--output FILE} option: where a command writes its report (default stdout).
 */
public final class OutputFile {
  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write to FILE instead of standard output.")
  Path file;

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  /** The file given with {@code -o}, or null for standard output. */
  Path file() {
    return file;
  }

  /** True when the output goes to the command's standard output. */
  boolean isStdout() {
    return file == null || file.toString().equals("-");
  }

  /**
   * Opens the output. Closing the returned writer closes the file, but only flushes standard
   * output.
   *
   * @throws BadInputException when the file cannot be created
   */
  Writer open() {
    if (isStdout()) {
      return new FilterWriter(mixee.commandLine().getOut()) {
        @Override
        public void close() throws IOException {
          flush();
        }
      };
    }
    try {
      return Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BadInputException("cannot write " + ErrorReporting.describe(e), e);
    }
  }

  /** Deletes a partly written output file after a failure (standard output is left alone). */
  void discard() {
    if (!isStdout()) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // Nothing more to do: the error that caused this is what the user needs to see.
      }
    }
  }
}
