package dev.weft.cli;

/** A tiny program for {@code weft run} tests: prints a line and exits with the code it is given. */
public final class ExitWith {
  private ExitWith() {}

  public static void main(String[] args) {
    System.out.println("ExitWith " + args[0]);
    System.exit(Integer.parseInt(args[0]));
  }
}
