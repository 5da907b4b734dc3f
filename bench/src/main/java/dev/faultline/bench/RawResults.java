package dev.faultline.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Raw results of benchmarks that do not write the flat JSON of {@link BenchReport} themselves. */
public final class RawResults {
  private static final Pattern STATS_LINE =
      Pattern.compile(
          "round \\d+: pass-through ([\\d,.]+) events/s; category-stats ([\\d,.]+) events/s");

  private RawResults() {}

  /**
   * JMH's JSON result file ({@code -rf json}) as {@code <method>_<bytes>_per_s}, the method {@code
   * tokenizeOnly} shortened to {@code tokenize}: {@code classify_1024_per_s}, {@code
   * tokenize_1024_per_s}, ...
   */
  public static Map<String, Double> fromJmh(JsonNode results) {
    Map<String, Double> values = new TreeMap<>();
    for (JsonNode r : results) {
      String benchmark = r.path("benchmark").asText();
      String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
      String name = method.startsWith("tokenize") ? "tokenize" : method;
      String bytes = r.path("params").path("bytes").asText("all");
      values.put(name + "_" + bytes + "_per_s", r.path("primaryMetric").path("score").asDouble());
    }
    return values;
  }

  /**
   * The last round of {@code CategoryStatsBenchmark}'s printed output ({@code round 2: pass-through
   * 1,234 events/s; category-stats 567 events/s ...}), for a version of it that does not write
   * JSON; empty when no round was printed.
   */
  public static Optional<Map<String, Double>> parseStats(String output) {
    Matcher m = STATS_LINE.matcher(output);
    Map<String, Double> values = null;
    while (m.find()) {
      values =
          Map.of(
              "passthrough_events_per_s",
              number(m.group(1)),
              "stats_events_per_s",
              number(m.group(2)));
    }
    return Optional.ofNullable(values);
  }

  /** A number as {@code %,.0f} prints it in an English or C locale. */
  private static double number(String printed) {
    return Double.parseDouble(printed.replace(",", ""));
  }
}
