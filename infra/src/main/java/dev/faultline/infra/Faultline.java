package dev.faultline.infra;

import dev.faultline.classifier.cli.ClassifyCommand;
import dev.faultline.classifier.cli.EvalCommand;
import dev.faultline.classifier.cli.LlmCommand;
import dev.faultline.classifier.learned.TrainCommand;
import dev.faultline.ingest.backfill.BackfillCommand;
import dev.faultline.infra.cluster.IngestCommand;
import dev.faultline.infra.cluster.JobsCommand;
import dev.faultline.infra.local.LocalCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code faultline} command: dispatches to subcommands. */
public final class Faultline {
  private final Map<String, Command> commands = new LinkedHashMap<>();

  public Faultline(List<Command> commands) {
    commands.forEach(c -> this.commands.put(c.name(), c));
  }

  /** Every command the launcher offers. */
  public static Faultline standard() {
    return new Faultline(
        List.of(
            new LocalCommand(),
            Command.of("classify", "classify issues from a JSONL file with the stream's classifier", ClassifyCommand::run),
            Command.of("eval", "measure the classifier against a labelled JSONL file", EvalCommand::run),
            Command.of("llm", "the language-model tier through a Batch API: export requests, import answers into the cache",
                LlmCommand::run),
            Command.of("train", "train and cross-validate the learned classifier layer on a labelled corpus",
                TrainCommand::run),
            Command.of("backfill", "feed history (GH Archive files, GitHub REST API) through the delivery topic", BackfillCommand::run),
            new QueryCommand(),
            new MigrateCommand(),
            new JobsCommand(),
            new IngestCommand(),
            new BenchCommand()));
  }

  public static void main(String[] args) {
    int code;
    try {
      code = standard().run(args, System.out, System.err);
    } catch (Exception e) {
      System.err.println("faultline: " + e.getMessage());
      code = 1;
    }
    // 'local' returns from its shutdown hook: exiting there would wait on the hook itself.
    if (code != 0 || !(args.length > 0 && args[0].equals("local"))) {
      System.exit(code);
    }
  }

  public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
      out.print(usage());
      return args.length == 0 ? 2 : 0;
    }
    Command command = commands.get(args[0]);
    if (command == null) {
      err.println("faultline: unknown command '" + args[0] + "'.");
      err.print(usage());
      return 2;
    }
    try {
      return command.run(Arrays.copyOfRange(args, 1, args.length), out, err);
    } catch (IllegalArgumentException e) {
      err.println("faultline " + command.name() + ": " + e.getMessage());
      return 2;
    }
  }

  public String usage() {
    StringBuilder b = new StringBuilder();
    b.append("Usage: faultline COMMAND [ARGS...]\n\n");
    b.append("A streaming pipeline and knowledge graph of defects in distributed deep-learning frameworks.\n\n");
    b.append("Commands:\n");
    commands.values().forEach(c -> b.append(String.format("  %-10s %s%n", c.name(), c.summary())));
    b.append("\nRun 'faultline COMMAND --help' for a command's flags.\n");
    return b.toString();
  }
}
