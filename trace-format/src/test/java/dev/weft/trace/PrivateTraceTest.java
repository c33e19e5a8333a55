package dev.weft.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace holds the program's command line and names: it is readable by its user only, and a
 * directory another user could replace is refused.
 */
class PrivateTraceTest {
  @TempDir Path tmp;

  @Test
  void directoriesAndFilesAreTheUsersOnly() throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path dir = tmp.resolve("t");
    Path open;
    try (TraceWriter w = TraceWriter.create(dir, TraceWriter.Options.defaults())) {
      w.openStream(1, "main", 0, 0, 0).threadBegin(1);
      open = dir.resolve("defs.reserve");
      assertEquals("rw-------", permissions(open), "the space reserve");
    }
    assertEquals("rwx------", permissions(dir));
    assertEquals("rwx------", permissions(dir.resolve(TraceFiles.EVENTS_DIR)));
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(f)) {
          assertEquals("rw-------", permissions(f), f.toString());
        }
      }
    }
  }

  @Test
  void anExistingEmptyDirectoryIsMadePrivate() throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path dir = Files.createDirectory(tmp.resolve("shared"));
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    TraceWriter.create(dir, TraceWriter.Options.defaults()).close();
    assertEquals("rwx------", permissions(dir));
  }

  @Test
  void aSymbolicLinkIsRefused() throws Exception {
    Path target = Files.createDirectory(tmp.resolve("elsewhere"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), target);
    IOException e =
        assertThrows(
            IOException.class, () -> TraceWriter.create(link, TraceWriter.Options.defaults()));
    assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    try (Stream<Path> files = Files.list(target)) {
      assertFalse(files.findAny().isPresent(), "nothing written through the link");
    }
  }

  @Test
  void aDirectoryOfAnotherUserIsRefused() throws Exception {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
    Path dir = Files.createDirectory(tmp.resolve("theirs"));
    UserPrincipal other;
    try {
      other = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(dir, other);
    } catch (IOException | UnsupportedOperationException e) {
      assumeTrue(false, "cannot give a directory to another user here: " + e);
      return;
    }
    IOException e =
        assertThrows(
            IOException.class, () -> TraceWriter.create(dir, TraceWriter.Options.defaults()));
    assertTrue(e.getMessage().contains("belongs to nobody"), e.getMessage());
  }

  private static String permissions(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
