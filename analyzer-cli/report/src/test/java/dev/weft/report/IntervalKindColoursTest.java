package dev.weft.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every wait kind's colour is told apart from every other kind's, with normal colour vision and as
 * seen with the three full dichromacies (simulated with the matrices of Machado, Oliveira and
 * Fernandes 2009 in linear RGB; distance in CIELAB, 1976).
 */
class IntervalKindColoursTest {
  private static final Set<IntervalKind> WORK =
      EnumSet.of(IntervalKind.TASK, IntervalKind.REGION, IntervalKind.PARALLEL);

  private static final double[][][] VISION = {
    {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
    {
      {0.152286, 1.052583, -0.204868},
      {0.114503, 0.786281, 0.099216},
      {-0.003882, -0.048116, 1.051998}
    },
    {
      {0.367322, 0.860646, -0.227968},
      {0.280085, 0.672501, 0.047413},
      {-0.011820, 0.042940, 0.968881}
    },
    {
      {1.255528, -0.076749, -0.178779},
      {-0.078411, 0.930809, 0.147602},
      {0.004733, 0.691367, 0.304900}
    }
  };
  private static final String[] VISION_NAMES = {
    "normal", "protanopia", "deuteranopia", "tritanopia"
  };

  @Test
  void everyWaitKindStandsApartFromEveryOtherKind() {
    List<String> tooClose = new ArrayList<>();
    IntervalKind[] kinds = IntervalKind.values();
    for (int v = 0; v < VISION.length; v++) {
      for (int i = 0; i < kinds.length; i++) {
        for (int j = i + 1; j < kinds.length; j++) {
          IntervalKind a = kinds[i];
          IntervalKind b = kinds[j];
          if (WORK.contains(a) && WORK.contains(b)) {
            continue; // Kinds of work may look alike: all of them are work.
          }
          // The lock-hold strip is thin and under the activity: its shape tells it apart too.
          double needed = a == IntervalKind.LOCK_HOLD || b == IntervalKind.LOCK_HOLD ? 15 : 20;
          double d = distance(lab(a.color(), VISION[v]), lab(b.color(), VISION[v]));
          if (d < needed) {
            tooClose.add(String.format("%s/%s %.1f (%s)", a.id(), b.id(), d, VISION_NAMES[v]));
          }
        }
      }
    }
    assertTrue(tooClose.isEmpty(), "colours too close: " + tooClose);
  }

  @Test
  void theContrastCheckTellsCloseColoursApart() {
    // The former join (orange) and condition wait (yellow) are close with deuteranopia.
    double d = distance(lab("#E69F00", VISION[2]), lab("#F0E442", VISION[2]));
    assertTrue(d < 20, "orange and yellow with deuteranopia: " + d);
  }

  private static double[] lab(String hex, double[][] vision) {
    double[] rgb = new double[3];
    for (int c = 0; c < 3; c++) {
      double s = Integer.parseInt(hex.substring(1 + 2 * c, 3 + 2 * c), 16) / 255.0;
      rgb[c] = s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
    }
    double[] seen = new double[3];
    for (int r = 0; r < 3; r++) {
      double x = vision[r][0] * rgb[0] + vision[r][1] * rgb[1] + vision[r][2] * rgb[2];
      seen[r] = Math.max(0, Math.min(1, x));
    }
    double x = 0.4124 * seen[0] + 0.3576 * seen[1] + 0.1805 * seen[2];
    double y = 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2];
    double z = 0.0193 * seen[0] + 0.1192 * seen[1] + 0.9505 * seen[2];
    double fx = f(x / 0.95047);
    double fy = f(y);
    double fz = f(z / 1.08883);
    return new double[] {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
  }

  private static double f(double t) {
    return t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16.0 / 116;
  }

  private static double distance(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < 3; i++) {
      s += (a[i] - b[i]) * (a[i] - b[i]);
    }
    return Math.sqrt(s);
  }
}
