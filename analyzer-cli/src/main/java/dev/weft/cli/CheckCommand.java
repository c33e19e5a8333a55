package dev.weft.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "check", mixinStandardHelpOptions = true)
final class CheckCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    return 0;
  }
}
