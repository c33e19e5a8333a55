package dev.weft.check;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A call path as the analysis writes it, outermost region first, each frame {@code "name @
 * File.java:12"}, with the source location of its innermost frame that has one: where a failure
 * points (file and line in a GitHub annotation, {@code file:line} in a message).
 *
 * @param frames the regions from the outermost
 * @param file the innermost located frame's source file name ({@code Worker.java}), or "" when no
 *     frame has one
 * @param line its first line, 0 when unknown
 */
public record CallPath(List<String> frames, String file, int line) {
  private static final Pattern LOCATION = Pattern.compile("(.+?\\.\\w+)(?::(\\d+)(?:-\\d+)?)?");

  public CallPath {
    frames = List.copyOf(frames);
  }

  /** The call path of these frames, located by its innermost frame with a source file. */
  public static CallPath of(List<String> frames) {
    for (int i = frames.size() - 1; i >= 0; i--) {
      String frame = frames.get(i);
      int at = frame.lastIndexOf(" @ ");
      if (at < 0) {
        continue;
      }
      Matcher m = LOCATION.matcher(frame.substring(at + 3).strip());
      if (m.matches() && m.group(1).endsWith(".java") || m.matches() && m.group(2) != null) {
        return new CallPath(frames, m.group(1), m.group(2) == null ? 0 : parse(m.group(2)));
      }
    }
    return new CallPath(frames, "", 0);
  }

  private static int parse(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** {@code Worker.java:42}, {@code Worker.java}, or "" when the path has no location. */
  public String location() {
    return file.isEmpty() ? "" : line > 0 ? file + ":" + line : file;
  }

  /** The frames joined by {@code " > "}, outermost first. */
  public String text() {
    return frames.isEmpty() ? "(no call path)" : String.join(" > ", frames);
  }
}
