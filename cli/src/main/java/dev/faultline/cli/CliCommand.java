package dev.faultline.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A command of {@code ./faultline} (annotate the subclass with picocli's {@code @Command} and its
 * options): the {@code -h, --help} option, and the output streams the command was run with ({@link
 * Cli#execute}). {@link #call()} returns the exit code: 0 ok, 1 failed, 2 usage or bad input.
 */
public abstract class CliCommand implements Callable<Integer> {
  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Show this help and exit.")
  private boolean help;

  @Spec protected CommandSpec spec;

  /** Where the command writes its results and its messages. */
  protected PrintStream out = System.out;

  protected PrintStream err = System.err;

  void streams(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /**
   * A usage error found after parsing (a value out of range, options that exclude each other):
   * thrown from {@link #call()}, picocli prints the message and the usage on the error stream and
   * exits 2.
   */
  protected ParameterException usageError(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
