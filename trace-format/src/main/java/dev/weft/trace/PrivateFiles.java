package dev.weft.trace;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * A trace is private to the user who records it: its directories are created {@code rwx------} and
 * its files {@code rw-------} (on file systems with POSIX permissions), because a trace holds the
 * program's command line, class and thread names. A trace directory that is a symbolic link, or
 * that another user owns, is refused: that user could delete or replace the trace.
 */
final class PrivateFiles {
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

  private static final FileAttribute<?>[] NONE = {};

  private PrivateFiles() {}

  /** The attributes that make a new file private (none where permissions are not POSIX). */
  static FileAttribute<?>[] file() {
    return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : NONE;
  }

  /** Creates a new private file. */
  static void createFile(Path file) throws IOException {
    Files.createFile(file, file());
  }

  /**
   * Checks that {@code dir} may hold a trace: not a symbolic link, and when it exists, a directory
   * of the calling user's.
   */
  static void checkTraceDirectory(Path dir) throws IOException {
    if (Files.isSymbolicLink(dir)) {
      throw new IOException(dir + " is a symbolic link (refused: the trace could be replaced)");
    }
    if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && POSIX) {
      UserPrincipal owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
      UserPrincipal me =
          dir.getFileSystem()
              .getUserPrincipalLookupService()
              .lookupPrincipalByName(System.getProperty("user.name"));
      if (!owner.equals(me)) {
        throw new IOException(
            dir + " belongs to " + owner.getName() + " (refused: the trace could be replaced)");
      }
    }
  }

  /** Creates {@code dir} if needed and makes it private to the calling user. */
  static void createPrivateDirectory(Path dir) throws IOException {
    if (POSIX) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIR));
      Files.setPosixFilePermissions(dir, DIR); // also when it existed, or the umask narrowed it
    } else {
      Files.createDirectories(dir);
    }
  }
}
