package dev.weft.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code weft completion}: prints a bash (and zsh) completion script for weft. */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = {
      "Print a bash/zsh completion script for weft.",
      "Use: source <(weft completion)   or   weft completion > /etc/bash_completion.d/weft"
    })
final class CompletionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String script =
        CompletionValues.script(
            WeftCommand.root(spec), () -> AutoComplete.bash("weft", spec.root().commandLine()));
    spec.commandLine().getOut().print(script);
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }
}
