package dev.weft.agent.weave;

/** A class for the weaving helpers to change (loaded again from its bytes by a child loader). */
public class Sample {
  private final String name;

  public Sample(String name) {
    this.name = name.trim(); // throws for null, after super()
  }

  public int twice(int x) {
    if (x < 0) {
      return -1;
    }
    return 2 * x;
  }

  public long mix(long a, double b, Object o) {
    try {
      return a + (long) b + o.hashCode();
    } catch (NullPointerException e) {
      return -a; // the method's own handler must keep working
    }
  }

  public static void boom(String why) {
    throw new IllegalStateException(why);
  }

  @Override
  public String toString() {
    return name;
  }
}
