package dev.weft.cli;

import dev.weft.export.ChromeFilter;
import dev.weft.store.QueryOutput;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Completion candidates for options whose values are a fixed set but not a Java enum of the
 * option's own type. picocli makes these objects whenever it builds a command's model, so they do
 * their work only when iterated, which only {@code weft completion} does.
 */
final class CompletionValues {
  /** The command whose environment says where the jars are, while a script is generated. */
  private static final ThreadLocal<WeftCommand> ROOT = ThreadLocal.withInitial(WeftCommand::new);

  private CompletionValues() {}

  /** Generates a script with jars found in {@code root}'s environment ({@code WEFT_HOME}). */
  static String script(WeftCommand root, Supplier<String> generate) {
    ROOT.set(root);
    try {
      return generate.get();
    } finally {
      ROOT.remove();
    }
  }

  /** {@code export --kinds}: the timeline kinds, and {@code all}. */
  static final class ExportKinds implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      List<String> ids = new ArrayList<>();
      for (ChromeFilter.Kind k : ChromeFilter.Kind.values()) {
        ids.add(k.id());
      }
      ids.add("all");
      return ids.iterator();
    }
  }

  /** {@code query --format}: table, csv, json. */
  static final class QueryFormats implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return lowerCase(QueryOutput.Format.values());
    }
  }

  /** {@code query --engine}: duckdb, spark. */
  static final class QueryEngines implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return lowerCase(QueryCommand.Engine.values());
    }
  }

  /**
   * {@code run --opt} and {@code attach --opt}: {@code KEY=} for each option the agent jar accepts
   * there ({@code out}, {@code duration} and {@code attach.skip_running} have options of their own;
   * {@code test.*} are for tests). None when the agent jar cannot be found or read.
   */
  static final class AgentOptionKeys implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      List<String> keys = new ArrayList<>();
      for (Object key :
          fromJar(
              root -> WeftHome.agentJar(root, null),
              AgentOptionsCheck.PARSER,
              parser -> {
                Field f = parser.getDeclaredField("KEYS");
                f.setAccessible(true);
                return (List<?>) f.get(null);
              })) {
        String k = String.valueOf(key);
        if (!k.equals("out")
            && !k.equals("duration")
            && !k.startsWith("attach.")
            && !k.startsWith("test.")) {
          keys.add(k + "=");
        }
      }
      return keys.iterator();
    }
  }

  /** {@code demo SCENARIO}: the test apps' scenarios; none when their jar cannot be read. */
  static final class DemoScenarios implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return fromJar(
              WeftHome::testappsJar,
              "dev.weft.testapps.Scenarios",
              scenarios -> {
                List<Object> names = new ArrayList<>();
                Method name =
                    scenarios
                        .getClassLoader()
                        .loadClass("dev.weft.testapps.Scenario")
                        .getMethod("name");
                for (Object s : (List<?>) scenarios.getMethod("all").invoke(null)) {
                  names.add(name.invoke(s));
                }
                return names;
              })
          .stream()
          .map(String::valueOf)
          .iterator();
    }
  }

  private static Iterator<String> lowerCase(Enum<?>[] values) {
    List<String> names = new ArrayList<>();
    for (Enum<?> v : values) {
      names.add(v.name().toLowerCase(Locale.ROOT));
    }
    return names.iterator();
  }

  /**
   * Reads a list from a class of the agent or test apps jar that weft would use; the jar is closed
   * afterwards, so the list must hold no object of the jar's classes.
   */
  private interface ListReader {
    List<?> read(Class<?> type) throws ReflectiveOperationException;
  }

  /**
   * {@code reader} applied to class {@code className} of the jar {@code jarOf} finds (as {@link
   * WeftHome} does), loaded apart from weft's own classes; empty when anything fails: completion
   * then offers nothing rather than failing.
   */
  private static List<?> fromJar(
      Function<WeftCommand, Path> jarOf, String className, ListReader reader) {
    try {
      Path jar = jarOf.apply(ROOT.get());
      try (URLClassLoader loader =
          new URLClassLoader(
              new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
        return List.copyOf(reader.read(Class.forName(className, true, loader)));
      }
    } catch (Exception | LinkageError e) {
      return List.of();
    }
  }
}
