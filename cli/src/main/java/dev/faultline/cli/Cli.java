package dev.faultline.cli;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Runs a picocli command the way every {@code ./faultline} command runs: help ({@code -h, --help})
 * on standard output with exit 0; a usage error (unknown option, missing or mistyped value) as a
 * message and the usage on the error stream with exit 2; an {@link IllegalArgumentException} from
 * the command (bad input it found) as one line naming the command, exit 2; any other exception as
 * one line, exit 1. Options are listed in declaration order, with their default values.
 */
public final class Cli {
  /** Exit code of a usage error or bad input. */
  public static final int USAGE = CommandLine.ExitCode.USAGE;

  /** Columns of the help text. */
  public static final int WIDTH = 110;

  private Cli() {}

  /**
   * Parses {@code args} for {@code command} (an annotated object or a {@link CommandLine}) and runs
   * it.
   */
  public static int execute(Object command, String[] args, PrintStream out, PrintStream err) {
    return commandLine(command, out, err).execute(args);
  }

  /**
   * The configured command line of {@code command} and the subcommands it has now (add programmatic
   * subcommands before).
   */
  public static CommandLine commandLine(Object command, PrintStream out, PrintStream err) {
    CommandLine commandLine = command instanceof CommandLine c ? c : new CommandLine(command);
    configure(commandLine, out, err);
    commandLine.setOut(writer(out));
    commandLine.setErr(writer(err));
    commandLine.setUsageHelpWidth(WIDTH);
    commandLine.setExecutionExceptionHandler(Cli::failed);
    commandLine.setParameterExceptionHandler(Cli::usageError);
    return commandLine;
  }

  private static void configure(CommandLine commandLine, PrintStream out, PrintStream err) {
    commandLine
        .getCommandSpec()
        .usageMessage()
        .showDefaultValues(true)
        .sortOptions(false)
        .descriptionHeading("%n")
        .parameterListHeading("%nParameters:%n")
        .optionListHeading("%nOptions:%n")
        .commandListHeading("%nCommands:%n");
    if (commandLine.getCommand() instanceof CliCommand c) {
      c.streams(out, err);
    }
    commandLine
        .getSubcommands()
        .values()
        .forEach(
            sub -> {
              if (sub.getParent()
                  == commandLine) { // aliases list a subcommand twice; each is configured once
                // anyway
                configure(sub, out, err);
              }
            });
  }

  /** The message, picocli's suggestions for a mistyped name, and always the usage. */
  private static int usageError(ParameterException e, String[] args) {
    CommandLine commandLine = e.getCommandLine();
    PrintWriter err = commandLine.getErr();
    err.println(e.getMessage());
    UnmatchedArgumentException.printSuggestions(e, err);
    commandLine.usage(err);
    err.flush();
    return commandLine.getCommandSpec().exitCodeOnInvalidInput();
  }

  private static int failed(Exception e, CommandLine commandLine, ParseResult parsed) {
    PrintWriter err = commandLine.getErr();
    if (e instanceof IllegalArgumentException) {
      err.println(commandLine.getCommandSpec().qualifiedName() + ": " + e.getMessage());
      err.println(
          "Run '" + commandLine.getCommandSpec().qualifiedName() + " --help' for the options.");
      err.flush();
      return USAGE;
    }
    err.println(commandLine.getCommandSpec().root().name() + ": " + e.getMessage());
    err.flush();
    return CommandLine.ExitCode.SOFTWARE;
  }

  private static PrintWriter writer(PrintStream stream) {
    return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
  }
}
