package dev.faultline.jobs.classify;

import dev.faultline.classifier.Comment;
import dev.faultline.classifier.Frameworks;
import dev.faultline.classifier.IssueText;
import dev.faultline.jobs.common.JobArgs;
import dev.faultline.jobs.records.PullRequestEvent;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a bounded replay of the deliveries topic ({@code faultline reclassify}) relabels: the issues
 * and pull requests created in {@code [since, until)} of one framework. The replay still reads
 * every delivery (an issue's facts are spread over the whole topic), folds each issue's state, and
 * drops the out-of-scope ones before they are classified, so they cost no classification and are
 * not written. The live pipeline runs with {@link #ALL} and filters nothing.
 *
 * <p>Travels as job flags, so a replay submitted to a Flink cluster has the same scope: {@code
 * --replay-since}, {@code --replay-until} (an ISO date, taken as UTC midnight, or an instant) and
 * {@code --replay-framework}.
 *
 * @param since created at or after (null: no bound)
 * @param until created before (null: no bound)
 * @param framework only this framework, as the graph names it (null: all)
 */
public record ReplayScope(Instant since, Instant until, String framework) implements Serializable {

  /** No bounds: everything (the live pipeline). */
  public static final ReplayScope ALL = new ReplayScope(null, null, null);

  /** Whether this scope filters nothing. */
  public boolean isAll() {
    return since == null && until == null && framework == null;
  }

  /** Whether an item of this framework created at this time (epoch milliseconds) is in scope. */
  public boolean covers(String itemFramework, long createdAtMillis) {
    if (framework != null && !framework.equals(itemFramework)) {
      return false;
    }
    if (since != null && createdAtMillis < since.toEpochMilli()) {
      return false;
    }
    return until == null || createdAtMillis < until.toEpochMilli();
  }

  /** Whether the issue an accumulator holds is in scope (false while it holds no issue state). */
  public boolean coversIssue(IssueAccumulator acc) {
    if (acc.issue == null) {
      return false;
    }
    if (isAll()) {
      return true;
    }
    return covers(
        framework == null ? null : frameworkOf(IssueClassification.textOf(acc)),
        acc.issue.createdAt);
  }

  /** Whether a pull request is in scope. */
  public boolean coversPullRequest(PullRequestEvent p) {
    return isAll() || covers(new Frameworks().ofRepo(p.repo).orElse(p.repo), p.createdAt);
  }

  /**
   * The framework the graph will give the issue, decided as the classifiers decide it (the
   * repository's, else the first one the text names, else the repository itself): cheap, no
   * classification.
   */
  static String frameworkOf(IssueText in) {
    Frameworks frameworks = new Frameworks();
    return frameworks
        .ofRepo(in.repo())
        .or(
            () -> {
              StringBuilder all = new StringBuilder(in.title()).append('\n').append(in.body());
              for (Comment c : in.comments()) {
                all.append('\n').append(c.body());
              }
              return frameworks.ofText(all.toString().toLowerCase(Locale.ROOT));
            })
        .orElse(in.repo());
  }

  /** The scope as job flags ({@link #fromArgs} reads them back). */
  public List<String> toArgs() {
    List<String> args = new ArrayList<>();
    if (since != null) {
      args.addAll(List.of("--replay-since", since.toString()));
    }
    if (until != null) {
      args.addAll(List.of("--replay-until", until.toString()));
    }
    if (framework != null) {
      args.addAll(List.of("--replay-framework", framework));
    }
    return args;
  }

  /**
   * The scope of {@code --replay-since/--replay-until/--replay-framework}; {@link #ALL} if none.
   */
  public static ReplayScope fromArgs(JobArgs args) {
    return new ReplayScope(
        instant(args.get("replay-since", null), "--replay-since"),
        instant(args.get("replay-until", null), "--replay-until"),
        args.get("replay-framework", null));
  }

  private static Instant instant(String value, String flag) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return value.length() == 10
          ? LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant()
          : Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          flag + " '" + value + "' is neither a date (2024-03-01) nor an instant", e);
    }
  }
}
