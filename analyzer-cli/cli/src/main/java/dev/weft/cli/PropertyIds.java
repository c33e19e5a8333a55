package dev.weft.cli;

import dev.weft.analysis.PropertyInfo;
import dev.weft.analysis.PropertyRegistry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** The analysis properties' ids ({@code lock_contention}, ...): completion candidates. */
final class PropertyIds implements Iterable<String> {
  @Override
  public Iterator<String> iterator() {
    List<String> ids = new ArrayList<>();
    for (PropertyInfo p : PropertyRegistry.infos()) {
      ids.add(p.id());
    }
    return ids.iterator();
  }
}
