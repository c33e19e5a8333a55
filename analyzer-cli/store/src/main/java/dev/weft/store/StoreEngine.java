package dev.weft.store;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;

/**
 * DuckDB embedded, reached through JDBC only. Its driver (one jar of about 80 MB with the native
 * libraries) is not inside weft.jar: it is loaded from the class path when it is there (tests,
 * embedding programs) and otherwise from {@code lib/duckdb_jdbc-*.jar} next to the jar holding this
 * class, so that no other weft command pays for it.
 */
public final class StoreEngine {
  static final String DRIVER = "org.duckdb.DuckDBDriver";

  /** Overrides where the DuckDB JDBC jar is looked for (a jar file). */
  public static final String JAR_PROPERTY = "weft.duckdb.jar";

  private static Driver driver;

  private StoreEngine() {}

  /** A new in-memory DuckDB database. */
  public static Connection open() throws StoreException {
    try {
      return driver().connect("jdbc:duckdb:", new Properties());
    } catch (SQLException e) {
      throw new StoreException("cannot start DuckDB: " + Sql.oneLine(e), e);
    }
  }

  private static synchronized Driver driver() throws StoreException {
    if (driver != null) {
      return driver;
    }
    ClassLoader own = StoreEngine.class.getClassLoader();
    Class<?> type;
    try {
      type = Class.forName(DRIVER, true, own);
    } catch (ClassNotFoundException notOnClassPath) {
      Path jar = findJar();
      if (jar == null) {
        throw new StoreException(
            "DuckDB is not installed: no lib/duckdb_jdbc-*.jar next to "
                + codeLocation()
                + " (build weft with 'mvn -B package -DskipTests', which copies it there)");
      }
      try {
        type = Class.forName(DRIVER, true, DuckDbClassLoader.of(jar, url(jar), own));
      } catch (ClassNotFoundException e) {
        throw new StoreException(jar + ": not a DuckDB JDBC jar (no " + DRIVER + ")");
      }
    }
    try {
      driver = (Driver) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new StoreException("cannot load DuckDB: " + e, e);
    }
    return driver;
  }

  private static URL url(Path jar) throws StoreException {
    try {
      return jar.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new StoreException(jar + ": " + e.getMessage(), e);
    }
  }

  /**
   * The DuckDB jar: {@value #JAR_PROPERTY}, else {@code lib/duckdb_jdbc-*.jar} beside weft's jar.
   */
  static Path findJar() {
    String given = System.getProperty(JAR_PROPERTY);
    if (given != null && !given.isBlank()) {
      return Path.of(given);
    }
    Path code = codeLocation();
    if (code == null) {
      return null;
    }
    Path lib = (Files.isDirectory(code) ? code : code.getParent()).resolve("lib");
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(lib, "duckdb_jdbc-*.jar")) {
      for (Path p : jars) {
        return p;
      }
    } catch (IOException e) {
      return null;
    }
    return null;
  }

  private static Path codeLocation() {
    CodeSource src = StoreEngine.class.getProtectionDomain().getCodeSource();
    if (src == null || src.getLocation() == null) {
      return null;
    }
    try {
      return Path.of(src.getLocation().toURI());
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }
}
