package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How reports name a thread: its last name, or its Java id while it has none. */
class ThreadDefTest {
  @Test
  void aThreadIsNamedByItsLastName() {
    ThreadDef d =
        new ThreadDef(
            3, 42, List.of(new ThreadDef.Rename(0, "pool-1"), new ThreadDef.Rename(5, "db")), 0, 0);
    assertEquals("db", d.name());
  }

  /** Virtual threads from Executors.newVirtualThreadPerTaskExecutor() have an empty name. */
  @Test
  void aThreadWithAnEmptyNameIsNamedByItsJavaId() {
    List<ThreadDef.Rename> empty = List.of(new ThreadDef.Rename(0, ""));
    assertEquals(
        "virtual #42",
        new ThreadDef(3, 42, empty, ThreadDef.VIRTUAL | ThreadDef.CARRIED, 0).name());
    assertEquals("thread #7", new ThreadDef(4, 7, empty, 0, 0).name());
    assertEquals("stream-5", new ThreadDef(5, 9, List.of(), 0, 0).name());
  }
}
