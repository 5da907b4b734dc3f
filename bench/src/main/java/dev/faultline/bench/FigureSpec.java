package dev.faultline.bench;

import java.util.List;

/**
 * One figure of the benchmark report: a key of a stage's raw result beside the key of its baseline
 * measured in the same run.
 *
 * @param section the report section and chart the figure belongs to
 * @param stage the benchmark stage whose raw files hold both keys
 * @param label what the figure measures, for the report
 * @param key the figure's key in the raw result
 * @param baselineLabel what the baseline measures, or {@code null} when the figure has none
 * @param baselineKey the baseline's key in the same raw result, or {@code null}
 * @param unit the unit of both values; figures of one stage and unit share a chart
 * @param higherIsBetter whether a larger value is better (throughput) or worse (latency, memory)
 */
public record FigureSpec(
    String section,
    String stage,
    String label,
    String key,
    String baselineLabel,
    String baselineKey,
    String unit,
    boolean higherIsBetter) {

  public FigureSpec {
    if ((baselineKey == null) != (baselineLabel == null)) {
      throw new IllegalArgumentException(
          "figure " + key + ": give both baselineKey and baselineLabel, or neither");
    }
  }

  public boolean hasBaseline() {
    return baselineKey != null;
  }

  static FigureSpec rate(
      String section,
      String label,
      String key,
      String baselineLabel,
      String baselineKey,
      String unit) {
    return new FigureSpec(
        section, stageOf(section), label, key, baselineLabel, baselineKey, unit, true);
  }

  static FigureSpec cost(
      String section,
      String label,
      String key,
      String baselineLabel,
      String baselineKey,
      String unit) {
    return new FigureSpec(
        section, stageOf(section), label, key, baselineLabel, baselineKey, unit, false);
  }

  /**
   * The backfill figures come from the receiver benchmark; latency and memory from the pipeline
   * benchmark.
   */
  static String stageOf(String section) {
    return switch (section) {
      case "backfill" -> "receiver";
      case "latency", "memory" -> "pipeline";
      default -> section;
    };
  }

  /**
   * Every figure the report knows, in report order. Raw keys no figure names still appear in the
   * report, in a table of their own (the per-query latencies, the receiver's no-op ceiling,
   * wall-clock variants).
   */
  public static final List<FigureSpec> ALL =
      List.of(
          rate(
              "receiver",
              "receiver: signed 12 KB POST → Kafka acks=all",
              "receiver_req_per_s",
              "bare KafkaProducer acks=all",
              "bare_producer_req_per_s",
              "req/s"),
          rate(
              "receiver",
              "receiver → Kafka, vs its own no-op-publisher ceiling",
              "receiver_req_per_s",
              "receiver → no-op publisher",
              "receiver_noop_req_per_s",
              "req/s"),
          cost(
              "receiver",
              "receiver → Kafka p50",
              "receiver_p50_ms",
              "bare KafkaProducer p50",
              "bare_producer_p50_ms",
              "ms"),
          cost(
              "receiver",
              "receiver → Kafka p99",
              "receiver_p99_ms",
              "bare KafkaProducer p99",
              "bare_producer_p99_ms",
              "ms"),
          cost(
              "receiver",
              "receiver → Kafka, process CPU per request (client, receiver, broker)",
              "receiver_cpu_ms_per_req",
              "bare KafkaProducer, CPU per request",
              "bare_producer_cpu_ms_per_req",
              "CPU-ms/req"),
          rate(
              "backfill",
              "backfill reader (0.1% kept): gunzip + filter + convert + Avro",
              "reader_events_per_cpu_s_sparse",
              "gunzip + JSON parse",
              "parse_events_per_cpu_s_sparse",
              "events/CPU-s"),
          rate(
              "backfill",
              "backfill reader (100% kept): gunzip + filter + convert + Avro",
              "reader_events_per_cpu_s_all",
              "gunzip + JSON parse",
              "parse_events_per_cpu_s_all",
              "events/CPU-s"),
          rate(
              "backfill",
              "backfill command → Kafka (0.1% kept)",
              "command_events_per_cpu_s_sparse",
              "gunzip + JSON parse",
              "parse_events_per_cpu_s_sparse",
              "events/CPU-s"),
          rate(
              "backfill",
              "backfill command → Kafka (100% kept)",
              "command_events_per_cpu_s_all",
              "gunzip + JSON parse",
              "parse_events_per_cpu_s_all",
              "events/CPU-s"),
          rate(
              "classifier",
              "classify, 1 KB issues, one thread",
              "classify_1024_per_s",
              "tokenise only",
              "tokenize_1024_per_s",
              "issues/s"),
          rate(
              "classifier",
              "classify, 4 KB issues, one thread",
              "classify_4096_per_s",
              "tokenise only",
              "tokenize_4096_per_s",
              "issues/s"),
          rate(
              "classifier",
              "classify, 16 KB issues, one thread",
              "classify_16384_per_s",
              "tokenise only",
              "tokenize_16384_per_s",
              "issues/s"),
          rate(
              "pipeline",
              "Kafka → classify → Neo4j",
              "pipeline_events_per_s",
              "Kafka → decode → discard",
              "kafka_discard_events_per_s",
              "events/s"),
          cost(
              "pipeline",
              "Kafka → classify → Neo4j, process CPU per event (the whole stack)",
              "pipeline_cpu_ms_per_event",
              "Kafka → decode → discard, CPU per event",
              "kafka_discard_cpu_ms_per_event",
              "CPU-ms/event"),
          rate(
              "pipeline",
              "Kafka → classify → Neo4j, vs bare MERGE of the same rows",
              "pipeline_events_per_s",
              "bare UNWIND … MERGE",
              "bare_merge_rows_per_s",
              "events/s"),
          rate(
              "pipeline",
              "graph writer, all relationships, vs issue properties alone",
              "graph_writer_rows_per_s",
              "bare UNWIND … MERGE, issue properties",
              "bare_merge_rows_per_s",
              "rows/s"),
          rate(
              "pipeline",
              "graph writer, all relationships, vs the same graph",
              "graph_writer_rows_per_s",
              "bare UNWIND … MERGE, same nodes + edges",
              "bare_merge_same_graph_rows_per_s",
              "rows/s"),
          rate(
              "pipeline",
              "graph writer by CPU, vs the same graph",
              "graph_writer_rows_per_cpu_s",
              "bare MERGE by CPU, same nodes + edges",
              "bare_merge_same_graph_rows_per_cpu_s",
              "rows/CPU-s"),
          latency("p50", 10, null),
          latency("p90", 10, null),
          latency("p99", 10, null),
          latency("max", 10, null),
          latency("p50", 100, "p50"),
          latency("p90", 100, "p90"),
          latency("p99", 100, "p99"),
          latency("max", 100, "max"),
          latency("p50", 500, "p50"),
          latency("p90", 500, "p90"),
          latency("p99", 500, "p99"),
          latency("max", 500, "max"),
          cost(
              "memory",
              "faultline local, peak RSS under load",
              "local_peak_rss_mib",
              "idle RSS",
              "local_idle_rss_mib",
              "MiB"),
          cost("memory", "faultline local, idle RSS", "local_idle_rss_mib", null, null, "MiB"),
          rate(
              "stats",
              "category statistics job, one slot",
              "stats_events_per_s",
              "pass-through job",
              "passthrough_events_per_s",
              "events/s"),
          cost(
              "stats",
              "category statistics job, process CPU per event",
              "stats_cpu_us_per_event",
              "pass-through job, CPU per event",
              "passthrough_cpu_us_per_event",
              "CPU-µs/event"),
          rate(
              "query",
              "issue write of the test fixture (labels, versions, release, edges)",
              "fixture_write_rows_per_s",
              "bare UNWIND … MERGE, new nodes",
              "ceiling_rows_per_s",
              "rows/s"));

  /**
   * Delivery → visible in Neo4j at {@code rate}/s, one point of the distribution ({@code p50},
   * {@code p90}, {@code p99}, {@code max}); above 10/s beside the same point at 10/s.
   */
  private static FigureSpec latency(String point, int rate, String baselinePoint) {
    return cost(
        "latency",
        "delivery → visible in Neo4j " + point + " at " + rate + "/s",
        "latency_" + point + "_ms_at_" + rate,
        baselinePoint == null ? null : baselinePoint + " at 10/s",
        baselinePoint == null ? null : "latency_" + baselinePoint + "_ms_at_10",
        "ms");
  }
}
