package dev.weft.cli;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The shared {@code -o/--output FILE} option: where a command writes its report (default stdout;
 * {@code -o -} is stdout too).
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
   * Uses {@code defaultFile} when no {@code -o} was given: for outputs that do not belong on a
   * terminal (an HTML page). {@code -o -} still means standard output.
   */
  void defaultTo(Path defaultFile) {
    if (file == null) {
      file = defaultFile;
    }
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

  /** Writes an output as bytes. */
  @FunctionalInterface
  interface ByteBody {
    /** Writes everything to {@code out}, which the caller closes. */
    void writeTo(OutputStream out) throws IOException;
  }

  /**
   * Writes UTF-8 bytes to the output: to the file (deleted again if {@code body} fails), or to
   * standard output, whose writer takes characters: the bytes are collected and written once {@code
   * body} has succeeded, so a failure prints nothing half-done.
   *
   * @throws BadInputException when the file cannot be created
   */
  void write(ByteBody body) throws IOException {
    if (isStdout()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      body.writeTo(bytes);
      PrintWriter out = mixee.commandLine().getOut();
      out.write(bytes.toString(StandardCharsets.UTF_8));
      out.flush();
      return;
    }
    OutputStream out;
    try {
      out = new BufferedOutputStream(Files.newOutputStream(file));
    } catch (IOException e) {
      throw new BadInputException("cannot write " + ErrorReporting.describe(e), e);
    }
    boolean done = false;
    try {
      body.writeTo(out);
      out.close();
      done = true;
    } catch (IOException e) {
      throw new BadInputException("cannot write " + file + ": " + ErrorReporting.describe(e), e);
    } finally {
      if (!done) {
        try {
          out.close();
        } catch (IOException | RuntimeException e) {
          // The first failure is the one to report.
        }
        discard();
      }
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
