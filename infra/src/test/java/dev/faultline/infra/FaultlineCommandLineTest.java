package dev.faultline.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every command and subcommand of {@code faultline} answers help, usage errors and completion the
 * same way.
 */
class FaultlineCommandLineTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return new Faultline()
        .run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /**
   * The path of every command and subcommand below {@code faultline}, e.g. {@code [jobs, submit]}.
   */
  static Stream<List<String>> commands() {
    List<List<String>> paths = new ArrayList<>();
    collect(Faultline.commandLine(Map.of()), new ArrayList<>(), paths);
    return paths.stream();
  }

  private static void collect(CommandLine commandLine, List<String> path, List<List<String>> into) {
    commandLine
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              List<String> p = new ArrayList<>(path);
              p.add(name);
              into.add(p);
              collect(sub, p, into);
            });
  }

  @Test
  void theLauncherHasEveryCommandAndTheirSubcommands() {
    List<String> names = commands().map(p -> String.join(" ", p)).toList();
    for (String expected :
        List.of(
            "local",
            "classify",
            "eval",
            "llm export",
            "llm import",
            "llm push",
            "train",
            "reclassify",
            "backfill gharchive",
            "backfill github",
            "backfill git",
            "query",
            "migrate",
            "sample draw",
            "sample import",
            "report seeds",
            "jobs submit",
            "jobs stop",
            "jobs savepoint",
            "jobs cancel",
            "jobs list",
            "ingest",
            "bench",
            "completion",
            "help")) {
      assertTrue(names.contains(expected), expected + " missing from " + names);
    }
  }

  @ParameterizedTest(name = "faultline {0} --help")
  @MethodSource("commands")
  void everyCommandAnswersHelpWithItsUsageAndExitZero(List<String> path) {
    List<String> args = new ArrayList<>(path);
    args.add("--help");
    // picocli reports a description it cannot format (a lone '%') on System.err, not on ours
    java.io.PrintStream systemErr = System.err;
    java.io.ByteArrayOutputStream picocli = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(picocli, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      assertEquals(0, run(args.toArray(String[]::new)), err());
    } finally {
      System.setErr(systemErr);
    }
    assertFalse(
        picocli.toString(java.nio.charset.StandardCharsets.UTF_8).contains("[picocli WARN]"),
        picocli.toString(java.nio.charset.StandardCharsets.UTF_8));
    String help = out();
    String usage = "Usage: faultline " + String.join(" ", path) + " [-h]";
    assertTrue(help.startsWith(usage), "expected '" + usage + "' in:\n" + help);
    assertTrue(help.contains("-h, --help") && help.contains("Show this help and exit."), help);
    assertEquals("", err());
  }

  @ParameterizedTest(name = "faultline {0} --no-such-option")
  @MethodSource("commands")
  void anUnknownOptionExitsTwoWithTheUsageOnStandardError(List<String> path) {
    CommandLine command = Faultline.commandLine(Map.of());
    for (String name : path) {
      command = command.getSubcommands().get(name);
    }
    List<String> args = new ArrayList<>(path);
    args.add("--no-such-option");
    int code = run(args.toArray(String[]::new));
    assertEquals(2, code, err());
    if (command.getCommandSpec().unmatchedArgsBindings().isEmpty()) {
      // (jobs submit hands unknown options to the job, bench to bench/run: not usage errors of
      // their own)
      // (picocli names a missing required option first, when there is one)
      assertTrue(
          err().contains("Unknown option: '--no-such-option'")
              || err().startsWith("Missing required"),
          err());
      assertTrue(err().contains("Usage: faultline " + String.join(" ", path)), err());
      assertEquals("", out());
    }
  }

  @Test
  void jobsSubmitHelpIsHelpNotAFlagWithoutAValue() {
    assertEquals(0, run("jobs", "submit", "--help"));
    assertTrue(
        out().contains("--jobmanager=HOST:PORT") && out().contains("Default: pipeline"), out());
  }

  @Test
  void defaultValuesAreShown() {
    assertEquals(0, run("local", "--help"));
    assertTrue(out().contains("Default: 8080") && out().contains("Default: .faultline"), out());
    out.reset();
    assertEquals(0, run("backfill", "git", "--help"));
    assertTrue(out().contains("Default: 500"), out());
  }

  @Test
  void anUnknownCommandOrNoneExitsTwoWithTheUsage() {
    assertEquals(2, run("nonsense"));
    assertTrue(
        err().contains("Unmatched argument at index 0: 'nonsense'")
            && err().contains("Usage: faultline"),
        err());
    err.reset();
    assertEquals(2, run());
    assertTrue(err().contains("name a command") && err().contains("Commands:"), err());
    assertEquals("", out());
  }

  @Test
  void helpListsEveryCommandWithItsSummary() {
    assertEquals(0, run("--help"));
    String help = out();
    assertTrue(
        help.contains("classify") && help.contains("Classify issues from a JSONL file"), help);
    assertTrue(
        help.contains("jobs") && help.contains("Submit, savepoint, stop, cancel or list"), help);
    out.reset();
    assertEquals(0, run("help", "jobs"));
    assertTrue(out().startsWith("Usage: faultline jobs"), out());
  }

  @Test
  void badInputFoundByACommandExitsTwoNamingIt() {
    assertEquals(2, run("local", "--http-port", "70000"));
    assertTrue(err().contains("must be a port number between 0 and 65535, got '70000'"), err());
    err.reset();
    assertEquals(2, run("query", "--param", "noEquals"));
    assertTrue(err().contains("--param needs NAME=VALUE, got 'noEquals'"), err());
    err.reset();
    assertEquals(2, run("jobs", "cancel", "--jobmanager", "127.0.0.1:1"));
    assertTrue(
        err().startsWith("faultline jobs cancel: pass --job-id ID or --job pipeline|stats"), err());
  }

  @Test
  void completionPrintsABashScriptOfEveryCommandAndOption() {
    assertEquals(0, run("completion"));
    String script = out();
    assertTrue(
        script.contains("complete -F _complete_faultline"),
        script.lines().limit(20).toList().toString());
    for (String word :
        List.of("backfill", "gharchive", "--tag-pattern", "submit", "--from-savepoint", "--tier")) {
      assertTrue(script.contains(word), word + " not in the completion script");
    }
    assertFalse(script.contains("Usage:"));
  }
}
