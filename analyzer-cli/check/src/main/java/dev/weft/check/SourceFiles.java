package dev.weft.check;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Finds a source file by its name under source roots, so that an annotation can point at {@code
 * src/main/java/com/acme/Worker.java} when the trace knows only {@code Worker.java}.
 */
public final class SourceFiles {
  private static final Set<String> SKIPPED = Set.of("target", "build", "node_modules", "out");
  private static final int MAX_FILES = 200_000;

  private SourceFiles() {}

  /**
   * A resolver that maps a file name to its path relative to {@code base} when exactly one file of
   * that name lies under {@code roots} (hidden and build output directories skipped); otherwise to
   * the name itself.
   */
  public static UnaryOperator<String> resolver(Path base, List<Path> roots) {
    Map<String, String> cache = new HashMap<>();
    return name -> cache.computeIfAbsent(name, n -> find(base, roots, n));
  }

  private static String find(Path base, List<Path> roots, String name) {
    List<Path> found = new ArrayList<>();
    int[] visited = {0};
    for (Path root : roots) {
      if (!Files.isDirectory(root)) {
        continue;
      }
      try {
        Files.walkFileTree(
            root,
            new SimpleFileVisitor<>() {
              @Override
              public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String d = dir.getFileName() == null ? "" : dir.getFileName().toString();
                boolean skip = !dir.equals(root) && (d.startsWith(".") || SKIPPED.contains(d));
                return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (file.getFileName().toString().equals(name) && !found.contains(file)) {
                  found.add(file);
                }
                return ++visited[0] > MAX_FILES || found.size() > 1
                    ? FileVisitResult.TERMINATE
                    : FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
              }
            });
      } catch (IOException e) {
        return name;
      }
    }
    if (found.size() != 1) {
      return name;
    }
    Path f = found.get(0).toAbsolutePath().normalize();
    Path b = base.toAbsolutePath().normalize();
    return (f.startsWith(b) ? b.relativize(f) : f).toString().replace('\\', '/');
  }
}
