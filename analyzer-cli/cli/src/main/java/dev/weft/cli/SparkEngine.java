package dev.weft.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code weft query --engine spark}: runs the query in a JVM of its own on the weft-spark module
 * (built by {@code mvn -Pspark package}: weft-spark.jar and Spark's jars in lib/). A child JVM, not
 * a class loader inside weft's: Spark needs module options (--add-opens) that only a JVM's command
 * line can give, its class path (Scala, its own Parquet and Jackson) stays apart from weft's and
 * DuckDB's, and it leaves threads behind that only an exit ends. The extra JVM start costs a tenth
 * of Spark's own session start or less (BENCHMARKS.md).
 */
final class SparkEngine {
  /** A directory holding weft-spark.jar and lib/ (overrides where the module is looked for). */
  static final String HOME_ENV = "WEFT_SPARK_HOME";

  /** The same as {@link #HOME_ENV}, as a system property (tests). */
  static final String HOME_PROPERTY = "weft.spark.home";

  static final String JAR = "weft-spark.jar";
  static final String MAIN = "dev.weft.spark.SparkQuery";

  /** Spark's launcher adds it for MLlib's vector code; SQL does not use it, and it warns. */
  private static final String INCUBATOR_VECTOR = "--add-modules=jdk.incubator.vector";

  private SparkEngine() {}

  /** Runs {@code args} (SparkQuery's) in the child JVM; returns its exit code. */
  static int run(List<String> args, PrintWriter out, PrintWriter err) {
    Path home = home();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(moduleOptions(home));
    command.add("-cp");
    command.add(home.resolve(JAR) + java.io.File.pathSeparator + home.resolve("lib") + "/*");
    command.add(MAIN);
    command.addAll(args);
    Process p;
    try {
      p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT).start();
    } catch (IOException e) {
      throw new BadInputException("cannot start Spark's JVM: " + e.getMessage(), e);
    }
    Thread errors = new Thread(() -> copy(p.getErrorStream(), err), "weft-spark-stderr");
    errors.setDaemon(true);
    errors.start();
    copy(p.getInputStream(), out);
    try {
      int code = p.waitFor();
      errors.join();
      return code;
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
      return ExitCodes.INTERNAL_ERROR;
    }
  }

  /** The arguments of SparkQuery for a weft query. */
  static List<String> args(
      String master, String format, boolean skipDamaged, String dir, String sql) {
    List<String> a = new ArrayList<>();
    if (master != null) {
      a.add("--master");
      a.add(master);
    }
    a.add("--format");
    a.add(format.toLowerCase(Locale.ROOT));
    if (skipDamaged) {
      a.add("--skip-damaged");
    }
    a.add(dir);
    a.add(sql);
    return a;
  }

  /** The arguments of SparkQuery for a weft trend. */
  static List<String> trendArgs(
      String master, boolean skipDamaged, String dir, String property, int last, String mainClass) {
    List<String> a = args(master, "table", skipDamaged, dir, null);
    a.remove(a.size() - 1); // no SQL
    a.remove(a.size() - 1); // the directory comes last
    a.add("--trend");
    a.add(property);
    a.add("--last");
    a.add(Integer.toString(last));
    if (mainClass != null) {
      a.add("--main-class");
      a.add(mainClass);
    }
    a.add(dir);
    return a;
  }

  /**
   * The module's directory: {@value #HOME_PROPERTY} or {@value #HOME_ENV} when set, else the build
   * tree's analyzer-cli/spark/target (under WEFT_HOME, or beside weft.jar's
   * analyzer-cli/cli/target).
   */
  static Path home() {
    List<Path> tried = new ArrayList<>();
    String given = System.getProperty(HOME_PROPERTY, System.getenv(HOME_ENV));
    if (given != null && !given.isBlank()) {
      tried.add(Path.of(given));
    } else {
      String weftHome = System.getenv("WEFT_HOME");
      if (weftHome != null && !weftHome.isBlank()) {
        tried.add(Path.of(weftHome, "analyzer-cli", "spark", "target"));
      }
      // weft.jar in analyzer-cli/cli/target
      Path analyzerCli = WeftHome.weftJar();
      for (int i = 0; i < 3 && analyzerCli != null; i++) {
        analyzerCli = analyzerCli.getParent();
      }
      if (analyzerCli != null) {
        tried.add(analyzerCli.resolve("spark").resolve("target"));
      }
    }
    for (Path p : tried) {
      if (Files.isRegularFile(p.resolve(JAR)) && Files.isDirectory(p.resolve("lib"))) {
        return p;
      }
    }
    throw new BadInputException(
        "the Spark engine is not built"
            + (tried.isEmpty() ? "" : " (no " + JAR + " and lib/ in " + tried.get(0) + ")")
            + ": run 'mvn -B -Pspark package -DskipTests' in weft's source tree, or set "
            + HOME_ENV
            + " to the directory holding "
            + JAR
            + " and lib/");
  }

  /** The module options Spark's own launcher gives a JVM, read from lib/spark-launcher_*.jar. */
  private static List<String> moduleOptions(Path home) {
    Path launcher = null;
    try (DirectoryStream<Path> jars =
        Files.newDirectoryStream(home.resolve("lib"), "spark-launcher_*.jar")) {
      for (Path p : jars) {
        launcher = p;
      }
    } catch (IOException e) {
      launcher = null;
    }
    if (launcher == null) {
      throw new BadInputException(
          home.resolve("lib") + ": no spark-launcher_*.jar (not a Spark build)");
    }
    try (URLClassLoader loader = new URLClassLoader(new URL[] {launcher.toUri().toURL()}, null)) {
      Object options =
          Class.forName("org.apache.spark.launcher.JavaModuleOptions", true, loader)
              .getMethod("defaultModuleOptionArray")
              .invoke(null);
      List<String> out = new ArrayList<>();
      for (String o : (String[]) options) {
        if (!o.equals(INCUBATOR_VECTOR)) {
          out.add(o);
        }
      }
      return out;
    } catch (ReflectiveOperationException | IOException | LinkageError e) {
      throw new BadInputException(launcher + ": cannot read Spark's JVM options: " + e, e);
    }
  }

  private static void copy(InputStream in, PrintWriter to) {
    try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      char[] buf = new char[8192];
      for (int n; (n = r.read(buf)) > 0; ) {
        to.write(buf, 0, n);
        to.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
