package dev.weft.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The option names closest to a mistyped one. picocli's own suggestions miss swapped letters
 * ({@code --fromat}, {@code --form} for {@code --from}); the edit distance counting a swap as one
 * edit finds them.
 */
final class Suggestions {
  private Suggestions() {}

  /**
   * The names within a small edit distance of {@code typed} (its part before any {@code =}),
   * nearest first, then {@code others} (picocli's) not already named.
   */
  static List<String> closest(String typed, Collection<String> names, List<String> others) {
    String word = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
    int allowed = Math.max(1, word.replaceFirst("^-+", "").length() / 4);
    List<String> near = new ArrayList<>();
    for (String n : names) {
      if (n.startsWith("--") == word.startsWith("--") && distance(word, n) <= allowed) {
        near.add(n);
      }
    }
    near.sort(Comparator.comparingInt((String n) -> distance(word, n)).thenComparing(n -> n));
    for (String o : others) {
      if (!near.contains(o)) {
        near.add(o);
      }
    }
    return near;
  }

  /** Edits (insert, delete, replace, swap two neighbours) that turn {@code a} into {@code b}. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
