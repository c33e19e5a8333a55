package dev.weft.agent.config;

import java.util.List;

/**
 * Which application classes the agent may instrument (POMP's {@code noinstrument}): a class is
 * instrumented when it matches an include pattern (or there are none) and no exclude pattern.
 *
 * <p>Patterns use binary class names: {@code com.acme.*} matches every class of package {@code
 * com.acme} and its subpackages, {@code com.acme.Cache} matches that class and its nested classes,
 * {@code *} matches everything.
 */
public final class ClassFilter {
  /** Instruments every class. */
  public static final ClassFilter ALL = new ClassFilter(List.of(), List.of());

  private final List<String> include;
  private final List<String> exclude;
  // Internal-name prefixes: "com/acme/" for a package pattern, "com/acme/Cache" for a class.
  private final String[] includePrefixes;
  private final String[] excludePrefixes;

  private ClassFilter(List<String> include, List<String> exclude) {
    this.include = List.copyOf(include);
    this.exclude = List.copyOf(exclude);
    this.includePrefixes = prefixes(include);
    this.excludePrefixes = prefixes(exclude);
  }

  /**
   * A filter from pattern lists.
   *
   * @throws OptionException if a pattern is not a class name, a package wildcard or {@code *}
   */
  public static ClassFilter of(List<String> include, List<String> exclude) throws OptionException {
    for (String p : include) {
      check("include", p);
    }
    for (String p : exclude) {
      check("exclude", p);
    }
    return new ClassFilter(include, exclude);
  }

  private static void check(String option, String pattern) throws OptionException {
    String body = pattern.endsWith(".*") ? pattern.substring(0, pattern.length() - 2) : pattern;
    if (pattern.equals("*")) {
      return;
    }
    boolean ok = !body.isEmpty();
    for (String part : body.split("\\.", -1)) {
      ok &= !part.isEmpty() && Character.isJavaIdentifierStart(part.charAt(0));
      for (int i = 1; ok && i < part.length(); i++) {
        ok = Character.isJavaIdentifierPart(part.charAt(i));
      }
    }
    if (!ok) {
      throw new OptionException(
          option + "=" + pattern + ": not a class pattern (use com.acme.Cache, com.acme.* or *)");
    }
  }

  private static String[] prefixes(List<String> patterns) {
    String[] out = new String[patterns.size()];
    for (int i = 0; i < out.length; i++) {
      String p = patterns.get(i);
      if (p.equals("*")) {
        out[i] = "";
      } else if (p.endsWith(".*")) {
        out[i] = p.substring(0, p.length() - 1).replace('.', '/');
      } else {
        out[i] = p.replace('.', '/');
      }
    }
    return out;
  }

  /**
   * Whether the class with this internal name ({@code com/acme/Cache$Entry}) may be instrumented.
   */
  public boolean accepts(String internalName) {
    if (includePrefixes.length > 0 && !matchesAny(includePrefixes, internalName)) {
      return false;
    }
    return !matchesAny(excludePrefixes, internalName);
  }

  private static boolean matchesAny(String[] prefixes, String name) {
    for (String p : prefixes) {
      if (p.isEmpty() || p.endsWith("/") && name.startsWith(p)) {
        return true;
      }
      if (name.startsWith(p) && (name.length() == p.length() || name.charAt(p.length()) == '$')) {
        return true;
      }
    }
    return false;
  }

  public List<String> include() {
    return include;
  }

  public List<String> exclude() {
    return exclude;
  }
}
