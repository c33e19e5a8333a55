package dev.weft.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

@Command(name = "verify", mixinStandardHelpOptions = true)
final class VerifyCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    return 0;
  }
}
