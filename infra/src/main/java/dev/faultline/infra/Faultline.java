package dev.faultline.infra;

import dev.faultline.classifier.cli.ClassifyCommand;
import dev.faultline.classifier.cli.EvalCommand;
import dev.faultline.classifier.cli.LlmCommand;
import dev.faultline.classifier.cli.TrainCommand;
import dev.faultline.cli.Cli;
import dev.faultline.cli.CliCommand;
import dev.faultline.infra.cluster.IngestCommand;
import dev.faultline.infra.cluster.JobsCommand;
import dev.faultline.infra.local.LocalCommand;
import dev.faultline.ingest.backfill.BackfillCommand;
import java.io.PrintStream;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code faultline} command: its subcommands on picocli ({@link Cli} says how every command
 * answers help, usage errors and failures).
 */
@Command(
    name = "faultline",
    description =
        "A streaming pipeline and knowledge graph of defects in distributed deep-learning frameworks.",
    footer = {
      "",
      "Run 'faultline COMMAND --help' for a command's options; 'faultline completion' for shell completion."
    })
public final class Faultline extends CliCommand {

  /**
   * Every command the launcher offers, reading {@code env}: the process environment, read here once
   * ({@link #run}) and handed to each command.
   */
  public static CommandLine commandLine(Map<String, String> env) {
    CommandLine commandLine = new CommandLine(new Faultline());
    commandLine.addSubcommand(new LocalCommand(env));
    commandLine.addSubcommand(new ClassifyCommand(env));
    commandLine.addSubcommand(new EvalCommand(env));
    commandLine.addSubcommand(new LlmCommand(env));
    commandLine.getSubcommands().get("llm").addSubcommand(new LlmPushCommand(env));
    commandLine.addSubcommand(new TrainCommand());
    commandLine.addSubcommand(new dev.faultline.infra.relabel.ReclassifyCommand(env));
    commandLine.addSubcommand(BackfillCommand.launcher(env).commandLine());
    commandLine.addSubcommand(new QueryCommand(env));
    commandLine.addSubcommand(new MigrateCommand(env));
    commandLine.addSubcommand(new SampleCommand(env));
    commandLine.addSubcommand(new ReportCommand(env));
    commandLine.addSubcommand(new JobsCommand(env).commandLine());
    commandLine.addSubcommand(new IngestCommand(env));
    commandLine.addSubcommand(new BenchCommand());
    commandLine.addSubcommand(new CompletionCommand());
    commandLine.addSubcommand(new HelpCommand());
    return commandLine;
  }

  public static void main(String[] args) {
    int code = new Faultline().run(args, System.out, System.err);
    // 'local' returns from its shutdown hook: exiting there would wait on the hook itself.
    if (code != 0 || !(args.length > 0 && args[0].equals("local"))) {
      System.exit(code);
    }
  }

  /** Runs {@code faultline ARGS}; returns the exit code (0 ok, 1 failed, 2 usage or bad input). */
  public int run(String[] args, PrintStream out, PrintStream err) {
    return Cli.execute(commandLine(System.getenv()), args, out, err);
  }

  @Override
  public Integer call() {
    throw usageError("name a command");
  }

  /**
   * {@code faultline help [COMMAND...]}: the help of faultline or of a command, as {@code --help}
   * prints it.
   */
  @Command(
      name = "help",
      description = "Print the help of faultline or of a command (as COMMAND --help does).")
  static final class HelpCommand extends CliCommand {
    @CommandLine.Parameters(
        paramLabel = "COMMAND",
        arity = "0..*",
        description = "a command, e.g. jobs submit")
    java.util.List<String> path = new java.util.ArrayList<>();

    @Override
    public Integer call() {
      CommandLine command = spec.root().commandLine();
      for (String name : path) {
        command = command.getSubcommands().get(name);
        if (command == null) {
          throw usageError("unknown command '" + String.join(" ", path) + "'");
        }
      }
      command.usage(out);
      return 0;
    }
  }

  /**
   * {@code faultline bench}: the benchmark harness is a development tool in its own module ({@code
   * bench/}), which the launcher does not ship; the {@code ./faultline} script hands {@code bench}
   * over to {@code bench/run}. Listed here so that help and completion name it.
   */
  @Command(
      name = "bench",
      description = {
        "Run every stage's benchmark beside its baseline; writes target/bench/report.md and charts.",
        "",
        "A development tool in its own module: './faultline bench' (the script) hands over to bench/run in the",
        "source tree; 'bench/run --help' lists its options. Not part of the launcher's jar."
      })
  static final class BenchCommand extends CliCommand {
    @CommandLine.Unmatched java.util.List<String> args;

    @Override
    public Integer call() {
      err.println(
          "faultline bench: run it from the source tree: ./faultline bench or bench/run (see bench/README.md)");
      return Cli.USAGE;
    }
  }
}
