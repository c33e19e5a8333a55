package dev.weft.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Loads DuckDB's JDBC driver from its jar and its native library from a copy unpacked once.
 *
 * <p>Why: the driver unpacks its 70 MB native library to a new temporary file at every start (about
 * one CPU-second), which dominated a short {@code weft trend} or {@code weft query}. The driver
 * looks for the library among its own resources first and falls back to {@code System.loadLibrary};
 * this loader hides that resource and answers {@link #findLibrary} with a copy kept in {@code
 * lib/duckdb-native/} beside the jar (or in the user's cache directory when that is not writable).
 * The copy's name holds the jar entry's size and CRC, so a new driver version gets a new copy; it
 * is written under a temporary name and renamed, so concurrent first starts are safe. Where no copy
 * can be made, the driver's own unpacking is used.
 */
final class DuckDbClassLoader extends URLClassLoader {
  private static final String LIBRARY = "duckdb_java";

  private final String resource;
  private final Path library;

  private DuckDbClassLoader(URL jar, ClassLoader parent, String resource, Path library) {
    super(new URL[] {jar}, parent);
    this.resource = resource;
    this.library = library;
  }

  /** A loader for the driver in {@code jar}, with its native library unpacked once if possible. */
  static URLClassLoader of(Path jar, URL url, ClassLoader parent) {
    String resource = nativeResource();
    Path library = resource == null ? null : unpackedOnce(jar, resource);
    if (library == null) {
      return new URLClassLoader(new URL[] {url}, parent);
    }
    return new DuckDbClassLoader(url, parent, resource, library);
  }

  @Override
  public URL getResource(String name) {
    return resource.equals(name) ? null : super.getResource(name);
  }

  @Override
  protected String findLibrary(String name) {
    return LIBRARY.equals(name) ? library.toString() : super.findLibrary(name);
  }

  /** The driver's name for this platform's library (as its loader spells it), or null. */
  static String nativeResource() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String a =
        switch (arch) {
          case "x86_64", "amd64" -> "amd64";
          case "aarch64", "arm64" -> "arm64";
          default -> null;
        };
    if (a == null) {
      return null;
    }
    String o =
        os.startsWith("linux")
            ? "linux"
            : os.startsWith("mac") ? "macos" : os.startsWith("windows") ? "windows" : null;
    return o == null ? null : "libduckdb_java.so_" + o + "_" + a;
  }

  private static Path unpackedOnce(Path jar, String resource) {
    try (JarFile file = new JarFile(jar.toFile())) {
      ZipEntry entry = file.getEntry(resource);
      if (entry == null || entry.getSize() < 0 || entry.getCrc() < 0) {
        return null;
      }
      String name =
          String.format(
              Locale.ROOT,
              "%d-%08x-%s",
              entry.getSize(),
              entry.getCrc(),
              System.mapLibraryName(LIBRARY));
      for (Path dir : cacheDirs(jar)) {
        if (!ownDirectory(dir)) {
          continue;
        }
        Path copy = dir.resolve(name);
        if (Files.isRegularFile(copy, LinkOption.NOFOLLOW_LINKS)
            && Files.size(copy) == entry.getSize()) {
          return copy;
        }
        try (InputStream in = file.getInputStream(entry)) {
          Path tmp = Files.createTempFile(dir, name, ".tmp");
          try {
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(tmp, copy, StandardCopyOption.ATOMIC_MOVE);
          } finally {
            Files.deleteIfExists(tmp);
          }
          return copy;
        } catch (IOException | UnsupportedOperationException e) {
          // try the next place
        }
      }
    } catch (IOException | SecurityException e) {
      return null;
    }
    return null;
  }

  /** Beside the jar first (as trusted as the jar), then the user's own cache directory. */
  private static Path[] cacheDirs(Path jar) {
    Path beside = jar.toAbsolutePath().getParent().resolve("duckdb-native");
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path home =
        (xdg != null && !xdg.isBlank()
                ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".cache"))
            .resolve("weft")
            .resolve("duckdb-native");
    return new Path[] {beside, home};
  }

  /**
   * Creates {@code dir} (private to the user) if absent; true when it is a real directory owned by
   * this user, so that nobody else can swap the library this process will load.
   */
  private static boolean ownDirectory(Path dir) {
    try {
      if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectories(dir.getParent());
        try {
          Files.createDirectory(
              dir,
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException notPosix) {
          Files.createDirectory(dir);
        }
      }
      return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
          && Files.isWritable(dir)
          && Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS)
              .getName()
              .equals(System.getProperty("user.name"));
    } catch (IOException | SecurityException e) {
      return false;
    }
  }
}
