package dev.weft.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "diff", mixinStandardHelpOptions = true)
final class DiffCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    return 0;
  }
}
