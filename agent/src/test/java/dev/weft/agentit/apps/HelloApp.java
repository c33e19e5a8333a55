package dev.weft.agentit.apps;

/** Prints a greeting and its arguments; nothing else. */
public final class HelloApp {
  public static void main(String[] args) {
    System.out.println("Hello, world");
    for (String a : args) {
      System.out.println(a);
    }
  }
}
