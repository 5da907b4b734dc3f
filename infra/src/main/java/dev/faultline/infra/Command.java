package dev.faultline.infra;

import java.io.PrintStream;

/** One subcommand of {@code faultline}. */
public interface Command {
  String name();

  /** One line for {@code faultline --help}. */
  String summary();

  /** Runs with the arguments after the command name; returns the process exit code. */
  int run(String[] args, PrintStream out, PrintStream err) throws Exception;

  /** A command that delegates to a static {@code run(args, out, err)} entry point of another module. */
  interface Entry {
    int run(String[] args, PrintStream out, PrintStream err) throws Exception;
  }

  static Command of(String name, String summary, Entry entry) {
    return new Command() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String summary() {
        return summary;
      }

      @Override
      public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        return entry.run(args, out, err);
      }
    };
  }
}
