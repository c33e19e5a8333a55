package dev.weft.agent.constructs;

import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassReader;

/**
 * Answers "is this class a subtype of one of these JDK types?" for the owner of a call instruction
 * (e.g. {@code invokevirtual com/acme/Fib.join()}), without loading classes: the class files of the
 * owner and its supertypes are read through the defining loader of the class being woven and only
 * their headers are parsed. Results are cached per loader.
 *
 * <p>A class file that cannot be read ends the search on that branch: the call is then not woven,
 * which loses an event but never misreads one.
 */
final class SuperTypes {
  /** Supertype names of each class seen, per loader (the bootstrap loader is the null key). */
  private static final Map<ClassLoader, Map<String, String[]>> CACHE = new WeakHashMap<>();

  private static final String[] UNKNOWN = new String[0];

  private SuperTypes() {}

  /**
   * Whether {@code type} (an internal name) is one of {@code targets} or a subtype of one, as seen
   * from {@code loader}.
   */
  static boolean isSubtype(ClassLoader loader, String type, Set<String> targets) {
    if (targets.contains(type)) {
      return true;
    }
    Deque<String> todo = new ArrayDeque<>();
    Set<String> seen = new HashSet<>();
    todo.add(type);
    while (!todo.isEmpty()) {
      String t = todo.poll();
      if (!seen.add(t) || t.equals("java/lang/Object")) {
        continue;
      }
      if (targets.contains(t)) {
        return true;
      }
      for (String s : supertypes(loader, t)) {
        todo.add(s);
      }
    }
    return false;
  }

  /** The superclass and interfaces of {@code type}, read from its class file. */
  private static String[] supertypes(ClassLoader loader, String type) {
    ClassLoader where = isJdk(type) ? null : loader;
    Map<String, String[]> known;
    synchronized (CACHE) {
      known = CACHE.computeIfAbsent(where, l -> new ConcurrentHashMap<>());
    }
    String[] s = known.get(type);
    if (s == null) {
      s = read(where, type);
      known.put(type, s);
    }
    return s;
  }

  private static boolean isJdk(String type) {
    return type.startsWith("java/") || type.startsWith("javax/") || type.startsWith("jdk/");
  }

  private static String[] read(ClassLoader loader, String type) {
    String resource = type + ".class";
    try (InputStream in =
        loader == null
            ? ClassLoader.getSystemClassLoader().getResourceAsStream(resource)
            : loader.getResourceAsStream(resource)) {
      if (in == null) {
        return UNKNOWN;
      }
      ClassReader r = new ClassReader(in);
      String superName = r.getSuperName();
      String[] interfaces = r.getInterfaces();
      String[] out = new String[interfaces.length + (superName == null ? 0 : 1)];
      int i = 0;
      if (superName != null) {
        out[i++] = superName;
      }
      for (String itf : interfaces) {
        out[i++] = itf;
      }
      return out;
    } catch (Exception | LinkageError e) {
      return UNKNOWN;
    }
  }
}
