package dev.faultline.infra;

import dev.faultline.cli.CliCommand;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.query.QueryLibrary;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.neo4j.driver.Driver;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code faultline report seeds}: the seed studies' figures beside this data's, as Markdown. */
@Command(
    name = "report",
    description = "Print a report of the graph as Markdown (seeds: the studies beside this data).",
    subcommands = {ReportCommand.Seeds.class},
    footer = {"", GraphConfig.ENVIRONMENT_HELP})
final class ReportCommand extends CliCommand {
  private final Map<String, String> env;

  ReportCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  @Override
  public Integer call() {
    throw usageError("name a report: seeds");
  }

  @Command(
      name = "seeds",
      description = {
        "The two seed studies' published figures (the codebook's section 10) beside this data's estimates.",
        "",
        "Each estimate sums the classifier's calibrated probabilities (simulated labellings) and gives",
        "a 90%% interval; query study-figures returns the same rows."
      })
  static final class Seeds extends CliCommand {
    @CommandLine.ParentCommand ReportCommand report;

    @CommandLine.Mixin ScopeOptions scope = new ScopeOptions();

    @Override
    public Integer call() {
      Map<String, String> params = scope.queryParameters();
      GraphConfig config = GraphConfig.fromEnvironment(report.env);
      try (Driver driver = config.openDriver()) {
        List<Map<String, Object>> rows =
            new QueryLibrary(driver, config.database()).run("study-figures", params);
        out.print(markdown(rows, scope.framework, scope.since, scope.until));
      }
      return 0;
    }
  }

  /** The rows of {@code study-figures} as a Markdown table with a heading naming the scope. */
  static String markdown(
      List<Map<String, Object>> rows, String framework, LocalDate since, LocalDate until) {
    StringBuilder b = new StringBuilder();
    b.append("## This data beside the seed studies\n\n");
    b.append("Scope: ")
        .append(framework == null ? "every framework" : framework)
        .append(", issues opened ")
        .append(since == null ? "from the start" : "from " + since)
        .append(until == null ? " to now" : " to " + until)
        .append(". Estimates: ")
        .append(rows.isEmpty() ? "" : rows.get(0).get("method"))
        .append("; intervals 90%, per-issue uncertainty only (not calibration error).\n\n");
    b.append("| study | published | this data (90% interval) | over | how it is counted here |\n");
    b.append("|---|---|---|---|---|\n");
    for (Map<String, Object> r : rows) {
      b.append("| ")
          .append(r.get("study"))
          .append(" | ")
          .append(cell((String) r.get("statement")))
          .append(" | ")
          .append(ours(r))
          .append(" | ")
          .append(
              r.get("basis") == null
                  ? ""
                  : String.format(Locale.ROOT, "≈ %.0f", (Double) r.get("basis")))
          .append(" | ")
          .append(cell((String) r.get("definition")))
          .append(" |\n");
    }
    return b.toString();
  }

  /** This data's figure: a share with its interval, or the ranking. */
  static String ours(Map<String, Object> r) {
    if (r.get("ranking") != null) {
      return cell((String) r.get("ranking"));
    }
    if (r.get("estimate") == null) {
      return r.get("note") == null ? "—" : "— (" + cell((String) r.get("note")) + ")";
    }
    return String.format(
        Locale.ROOT,
        "%.1f%% (%.1f–%.1f%%)",
        100 * (Double) r.get("estimate"),
        100 * (Double) r.get("low"),
        100 * (Double) r.get("high"));
  }

  private static String cell(String s) {
    return s == null ? "" : s.replace("|", "\\|");
  }
}
