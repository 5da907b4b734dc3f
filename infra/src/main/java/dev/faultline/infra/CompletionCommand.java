package dev.faultline.infra;

import dev.faultline.cli.CliCommand;
import picocli.AutoComplete;
import picocli.CommandLine.Command;

/**
 * {@code faultline completion}: a bash (and zsh) completion script of every command and option,
 * generated.
 */
@Command(
    name = "completion",
    description = {
      "Print the shell completion script of faultline (bash; zsh with bashcompinit).",
      "",
      "Enable it for this shell:   source <(./faultline completion)",
      "or for every shell:         ./faultline completion > ~/.local/share/bash-completion/completions/faultline"
    })
final class CompletionCommand extends CliCommand {
  @Override
  public Integer call() {
    out.print(AutoComplete.bash(spec.root().name(), spec.root().commandLine()));
    out.flush();
    return 0;
  }
}
