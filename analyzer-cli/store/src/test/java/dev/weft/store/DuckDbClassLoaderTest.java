package dev.weft.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DuckDB's native library unpacked once beside its jar, and the driver working from that copy. */
class DuckDbClassLoaderTest {
  @TempDir Path tmp;

  @Test
  void theDriverRunsFromTheLibraryUnpackedOnceBesideItsJar() throws Exception {
    Path real = driverJar();
    Path jar = Files.createSymbolicLink(tmp.resolve("duckdb_jdbc.jar"), real);
    String resource = DuckDbClassLoader.nativeResource();
    assertNotNull(resource, "this platform has a DuckDB library");

    URLClassLoader loader = loaderFor(jar);
    DuckDbClassLoader own = assertInstanceOf(DuckDbClassLoader.class, loader);
    assertNull(own.getResource(resource), "the driver must not unpack its own copy");
    Path copy = Path.of(own.findLibrary("duckdb_java"));
    assertEquals(tmp.resolve("duckdb-native"), copy.getParent());
    assertEquals(Files.size(copy), jarEntrySize(real, resource));

    Driver driver =
        (Driver)
            Class.forName(StoreEngine.DRIVER, true, loader).getDeclaredConstructor().newInstance();
    try (Connection c = driver.connect("jdbc:duckdb:", new Properties());
        ResultSet r = c.createStatement().executeQuery("SELECT 6 * 7")) {
      assertTrue(r.next());
      assertEquals(42, r.getInt(1));
    }

    // A second start reuses the copy: same file, not rewritten, no temporary left behind.
    FileTime written = Files.getLastModifiedTime(copy);
    Files.setLastModifiedTime(copy, FileTime.fromMillis(written.toMillis() - 60_000));
    DuckDbClassLoader again = (DuckDbClassLoader) loaderFor(jar);
    assertEquals(copy.toString(), again.findLibrary("duckdb_java"));
    assertEquals(written.toMillis() - 60_000, Files.getLastModifiedTime(copy).toMillis());
    try (Stream<Path> files = Files.list(copy.getParent())) {
      assertEquals(List.of(copy), files.toList());
    }
  }

  @Test
  void aCopyOfTheWrongSizeIsReplaced() throws Exception {
    Path real = driverJar();
    Path jar = Files.createSymbolicLink(tmp.resolve("duckdb_jdbc.jar"), real);
    DuckDbClassLoader first = (DuckDbClassLoader) loaderFor(jar);
    Path copy = Path.of(first.findLibrary("duckdb_java"));
    Files.write(copy, new byte[] {1, 2, 3}); // a copy cut short, e.g. by a full disk
    DuckDbClassLoader second = (DuckDbClassLoader) loaderFor(jar);
    assertEquals(copy.toString(), second.findLibrary("duckdb_java"));
    assertEquals(jarEntrySize(real, DuckDbClassLoader.nativeResource()), Files.size(copy));
  }

  /** The DuckDB driver jar on the tests' class path. */
  private static Path driverJar() throws Exception {
    return Path.of(
        Class.forName(StoreEngine.DRIVER)
            .getProtectionDomain()
            .getCodeSource()
            .getLocation()
            .toURI());
  }

  /** The platform loader as parent: DuckDB's classes then come from this loader, not the tests'. */
  private static URLClassLoader loaderFor(Path jar) throws Exception {
    return DuckDbClassLoader.of(jar, jar.toUri().toURL(), ClassLoader.getPlatformClassLoader());
  }

  private static long jarEntrySize(Path jar, String entry) throws Exception {
    try (java.util.jar.JarFile f = new java.util.jar.JarFile(jar.toFile())) {
      return f.getEntry(entry).getSize();
    }
  }
}
