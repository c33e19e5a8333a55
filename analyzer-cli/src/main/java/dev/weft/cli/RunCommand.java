package dev.weft.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "run", mixinStandardHelpOptions = true)
final class RunCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    return 0;
  }
}
