package dev.weft.trace.pairing;

import dev.weft.trace.Event;
import dev.weft.trace.EventCursor;
import dev.weft.trace.EventKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Feeds one thread's events to a {@link PairMatcher} and writes down what it pairs, one line each:
 * {@code construct key open..close}, {@code construct key open..close inside} for a construct
 * closed with an outer one, {@code unmatched kind@time}, {@code hold lock since..until}, {@code
 * open construct key open..} at the end. Times stand for the events.
 */
final class PairLog implements PairMatcher.Listener {
  final List<String> lines = new ArrayList<>();

  static List<String> of(List<Event> events) {
    PairLog log = new PairLog();
    PairMatcher m = new PairMatcher(log);
    ListCursor c = new ListCursor(events);
    while (c.next()) {
      m.event(c);
    }
    for (int d = m.depth() - 1; d >= 0; d--) {
      log.lines.add("open " + frame(m, d) + "..");
    }
    for (int i = 0; i < m.heldLocks(); i++) {
      log.lines.add("held " + m.heldLock(i) + " x" + m.heldCount(i) + " " + m.heldSince(i) + "..");
    }
    return log.lines;
  }

  private static String frame(PairMatcher m, int d) {
    String key =
        m.construct(d) == Construct.BARRIER_WAIT
            ? m.key(d) + "/" + m.secondKey(d)
            : String.valueOf(m.key(d));
    return m.construct(d).id() + " " + key + " " + m.openTime(d);
  }

  @Override
  public void closed(PairMatcher m, int depth, EventCursor e) {
    for (int d = m.depth() - 1; d > depth; d--) {
      lines.add(frame(m, d) + ".." + e.time() + " inside");
    }
    lines.add(frame(m, depth) + ".." + e.time());
  }

  @Override
  public void unmatched(PairMatcher m, Construct c, EventCursor e) {
    lines.add("unmatched " + e.kind().id() + "@" + e.time());
  }

  @Override
  public void released(PairMatcher m, long lock, int count, long since, EventCursor e) {
    if (count == 0) {
      lines.add("hold " + lock + " " + since + ".." + e.time());
    }
  }

  @Override
  public void mounted(PairMatcher m, long previous, EventCursor e) {
    if (previous != 0) {
      lines.add("mount " + e.field(0) + "@" + e.time() + " over " + previous);
    }
  }

  @Override
  public void unmounted(PairMatcher m, long previous, EventCursor e) {
    if (previous != e.field(0)) {
      lines.add("unmount " + e.field(0) + "@" + e.time() + " of " + previous);
    }
  }

  @Override
  public void ended(PairMatcher m, EventCursor e) {
    for (int d = m.depth() - 1; d >= 0; d--) {
      lines.add("ended " + frame(m, d) + ".." + e.time());
    }
  }

  /** One thread's events as a cursor. */
  static final class ListCursor implements EventCursor {
    private final List<Event> events;
    private int at = -1;

    ListCursor(List<Event> events) {
      this.events = events;
    }

    @Override
    public boolean next() {
      return ++at < events.size();
    }

    @Override
    public EventKind kind() {
      return events.get(at).kind();
    }

    @Override
    public long time() {
      return events.get(at).time();
    }

    @Override
    public int stream() {
      return events.get(at).stream();
    }

    @Override
    public long field(int index) {
      return events.get(at).field(index);
    }
  }
}
