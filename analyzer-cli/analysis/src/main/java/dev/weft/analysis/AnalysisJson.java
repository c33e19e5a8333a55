package dev.weft.analysis;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Writes and reads {@link AnalysisResult} as JSON, format {@code weft-analysis/1} (field names in
 * snake_case; see PROPERTIES.md). Readers accept unknown fields, so later minor additions stay
 * readable.
 */
public final class AnalysisJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private AnalysisJson() {}

  /** Writes {@code result} to {@code out} (which stays open), followed by a newline. */
  public static void write(AnalysisResult result, OutputStream out) throws IOException {
    MAPPER.writeValue(out, result);
    out.write('\n');
    out.flush();
  }

  /** The JSON text of {@code result}. */
  public static String toJson(AnalysisResult result) {
    try {
      return MAPPER.writeValueAsString(result) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise an analysis result", e);
    }
  }

  /**
   * Reads an analysis JSON file.
   *
   * @throws IOException with a one-line message naming the file when it cannot be read or is not a
   *     {@code weft-analysis/1} document
   */
  public static AnalysisResult read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in, file.toString());
    } catch (NoSuchFileException e) {
      throw new IOException(file + ": no such file");
    }
  }

  /** Reads an analysis JSON document; {@code name} names the source in error messages. */
  public static AnalysisResult read(InputStream in, String name) throws IOException {
    AnalysisResult r;
    try {
      r = MAPPER.readValue(in, AnalysisResult.class);
    } catch (JsonProcessingException e) {
      String why = e.getOriginalMessage();
      if (why != null) {
        why = why.lines().findFirst().orElse(why);
      }
      throw new IOException(name + ": not a Weft analysis JSON document: " + why);
    }
    if (r == null || r.format() == null || !r.format().equals(AnalysisResult.FORMAT)) {
      throw new IOException(
          name
              + ": not a Weft analysis JSON document (format "
              + (r == null ? null : r.format())
              + ", expected "
              + AnalysisResult.FORMAT
              + ")");
    }
    return r;
  }
}
