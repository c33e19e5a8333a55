package dev.weft.cli;

import dev.weft.trace.EventKind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** The event kinds' ids ({@code lock_request}, ...): completion candidates for {@code --kind}. */
final class EventKindIds implements Iterable<String> {
  @Override
  public Iterator<String> iterator() {
    List<String> ids = new ArrayList<>();
    for (EventKind k : EventKind.values()) {
      ids.add(k.id());
    }
    return ids.iterator();
  }
}
