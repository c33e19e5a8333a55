package dev.weft.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The damage one stream's cursor skipped over in salvage mode, one line each naming the file and
 * byte, with the events known to be lost to it. Apart from {@link StreamCursor} because it is the
 * cursor's account of what it skipped, not part of reading: nothing here runs for a sound event.
 */
final class DamageLog {
  /** Lines kept at most; the events lost are counted beyond them. */
  private static final int MAX_LINES = 20;

  private final Path file;
  private final List<String> lines = new ArrayList<>();
  private long lost;
  private boolean lostUnknown;

  DamageLog(Path file) {
    this.file = file;
  }

  /** Records damage; {@code lostEvents} is how many events it lost, or -1 when unknown. */
  void add(String why, long lostEvents) {
    if (lines.size() < MAX_LINES) {
      lines.add(file.getFileName() + ": " + why);
    }
    if (lostEvents < 0) {
      lostUnknown = true;
    } else {
      lost += lostEvents;
    }
  }

  /**
   * The lines recorded, followed by {@code stoppedBy} (the damage that stopped reading, or null)
   * unless it is one of them.
   */
  List<String> lines(String stoppedBy) {
    if (stoppedBy != null && !lines.contains(stoppedBy)) {
      List<String> all = new ArrayList<>(lines);
      all.add(stoppedBy);
      return all;
    }
    return List.copyOf(lines);
  }

  /** Events known to be lost, or -1 when some losses are uncounted. */
  long lostEvents() {
    return lostUnknown ? -1 : lost;
  }
}
