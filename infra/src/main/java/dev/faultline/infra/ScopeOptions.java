package dev.faultline.infra;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The scope options the graph's reports and samples share (a picocli mixin): a framework and the
 * days issues were opened in, as the query library's {@code framework}, {@code from} and {@code
 * to}.
 */
final class ScopeOptions {
  @Option(names = "--framework", paramLabel = "F", description = "only this framework")
  String framework;

  @Option(
      names = "--since",
      paramLabel = "DATE",
      description = "issues opened on or after this day (YYYY-MM-DD, UTC)")
  LocalDate since;

  @Option(
      names = "--until",
      paramLabel = "DATE",
      description = "issues opened before this day (YYYY-MM-DD, UTC)")
  LocalDate until;

  /** The start of {@code --since} (UTC), or null. */
  ZonedDateTime from() {
    return start(since);
  }

  /** The start of {@code --until} (UTC), or null. */
  ZonedDateTime to() {
    return start(until);
  }

  /** The scope as query parameters (only those given). */
  Map<String, String> queryParameters() {
    Map<String, String> params = new LinkedHashMap<>();
    if (framework != null) {
      params.put("framework", framework);
    }
    if (since != null) {
      params.put("from", from().toInstant().toString());
    }
    if (until != null) {
      params.put("to", to().toInstant().toString());
    }
    return params;
  }

  private static ZonedDateTime start(LocalDate day) {
    return day == null ? null : day.atStartOfDay(ZoneOffset.UTC);
  }
}
