package dev.faultline.stats;

import dev.faultline.graph.GraphConfig;
import dev.faultline.schemas.KafkaSettings;
import dev.faultline.stats.records.ClassifiedEvent;
import java.nio.file.Files;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Classified events per second through the statistics job on one slot, beside a pass-through job
 * over the same generated source in the same run. Printed, not asserted; not part of {@code mvn
 * verify}. Run (see README):
 *
 * <pre>
 * mvn -B -o -q -pl stream-jobs test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test.cp
 * java $FLINK_OPENS -cp stream-jobs/target/test-classes:stream-jobs/target/classes:$(cat stream-jobs/target/test.cp) \
 *   dev.faultline.stats.CategoryStatsBenchmark 1000000
 * </pre>
 *
 * With {@code -Dfaultline.bench.out=FILE} it also writes the last round's figures there as JSON.
 */
public final class CategoryStatsBenchmark {
  private CategoryStatsBenchmark() {}

  public static void main(String[] args) throws Exception {
    long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
    StatsConfig config =
        StatsConfig.defaults(
            StatsConfig.defaultIo(
                KafkaSettings.of("127.0.0.1:9092"),
                new GraphConfig("bolt://127.0.0.1:7687", "neo4j", "unused", "neo4j")));
    System.out.printf(
        "events=%d, one slot, windows %s sliding by %s, in-order live stream with re-classifications%n",
        n,
        config.windows().stream()
            .map(dev.faultline.stats.domain.Explanations::windowLabel)
            .toList(),
        dev.faultline.stats.domain.Explanations.windowLabel(config.slide()));
    double pass = 0;
    double stats = 0;
    double passCpu = 0;
    double statsCpu = 0;
    for (int round = 1; round <= 2; round++) {
      long cpu = processCpuNanos();
      pass = run(n, config, false);
      passCpu = (processCpuNanos() - cpu) / 1e3 / n;
      cpu = processCpuNanos();
      stats = run(n, config, true);
      statsCpu = (processCpuNanos() - cpu) / 1e3 / n;
      System.out.printf(
          "round %d: pass-through %,.0f events/s (%.1f CPU-µs/event); category-stats %,.0f events/s"
              + " (%.1f CPU-µs/event; %.1f%% of pass-through)%n",
          round, pass, passCpu, stats, statsCpu, 100 * stats / pass);
    }
    // For faultline bench: the last (warm) round's figures as one flat JSON object.
    String out = System.getProperty("faultline.bench.out");
    if (out != null) {
      Files.writeString(
          java.nio.file.Path.of(out),
          new com.fasterxml.jackson.databind.ObjectMapper()
              .writeValueAsString(
                  java.util.Map.of(
                      "events",
                      (double) n,
                      "passthrough_events_per_s",
                      pass,
                      "stats_events_per_s",
                      stats,
                      "passthrough_cpu_us_per_event",
                      passCpu,
                      "stats_cpu_us_per_event",
                      statsCpu)));
    }
  }

  /** CPU time of the whole process (the MiniCluster runs in it), in nanoseconds. */
  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static double run(long n, StatsConfig config, boolean statistics) throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_PORT, "0");
    conf.set(JobManagerOptions.ADDRESS, "127.0.0.1");
    conf.set(JobManagerOptions.BIND_HOST, "127.0.0.1");
    conf.set(TaskManagerOptions.HOST, "127.0.0.1");
    conf.set(TaskManagerOptions.BIND_HOST, "127.0.0.1");
    // Checkpoints as in production (the per-issue history outgrows the 5 MB JobManager storage):
    // files, heap state.
    conf.set(StateBackendOptions.STATE_BACKEND, "hashmap");
    conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    conf.set(
        CheckpointingOptions.CHECKPOINTS_DIRECTORY,
        Files.createTempDirectory("stats-bench").toUri().toString());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
    env.enableCheckpointing(Duration.ofSeconds(10).toMillis());
    DataGeneratorSource<ClassifiedEvent> source =
        new DataGeneratorSource<>(
            new Generated(n),
            n,
            RateLimiterStrategy.noOp(),
            TypeInformation.of(ClassifiedEvent.class));
    if (statistics) {
      DataStream<ClassifiedEvent> events =
          env.fromSource(source, CategoryStatsJob.watermarks(config), "generated");
      CategoryStatsJob.Outputs out = CategoryStatsJob.apply(events, config);
      out.stats().sinkTo(new DiscardingSink<>());
      out.alerts().sinkTo(new DiscardingSink<>());
    } else {
      env.fromSource(source, WatermarkStrategy.noWatermarks(), "generated")
          .map(e -> e)
          .returns(ClassifiedEvent.class)
          .sinkTo(new DiscardingSink<>());
    }
    long start = System.nanoTime();
    env.execute(statistics ? "category-stats-bench" : "pass-through-bench");
    return n / ((System.nanoTime() - start) / 1e9);
  }

  /**
   * Event i: even i opens issue i/2; odd i re-classifies an issue opened ~1000 issues earlier.
   * Times advance steadily over a year; six frameworks; categories from a hash of the index.
   */
  static final class Generated implements GeneratorFunction<Long, ClassifiedEvent> {
    private static final String[] FW = {
      "deepspeed", "megatron-lm", "colossalai", "pytorch", "vllm", "horovod"
    };
    private static final String[] SYMPTOMS = {
      "HANG",
      "OUT_OF_MEMORY",
      "RUNTIME_CRASH",
      "COMMUNICATION_FAILURE",
      "INCORRECT_OUTPUT",
      "UNKNOWN"
    };
    private static final String[] ROOT = {
      "CONCURRENCY_ERROR", "CONFIGURATION_ERROR", "VERSION_INCOMPATIBILITY", "API_MISUSE", "UNKNOWN"
    };
    private static final String[] STAGES = {
      "COMMUNICATION", "MEMORY", "INITIALIZATION", "COMPUTATION", "UNKNOWN"
    };
    private final long n;

    Generated(long n) {
      this.n = n;
    }

    @Override
    public ClassifiedEvent map(Long index) {
      long i = index;
      long step = Duration.ofDays(365).toMillis() / Math.max(1, n);
      long now = Fixtures.T0 + i * step;
      boolean reclassify = i % 2 == 1 && i > 2000;
      long issue = reclassify ? (i - 2000) / 2 : i / 2;
      long h = mix(issue * 31 + (reclassify ? 7 : 0));
      ClassifiedEvent e =
          Fixtures.event(
              FW[(int) (mix(issue) % FW.length)] + "/repo#" + issue,
              FW[(int) (mix(issue) % FW.length)],
              reclassify ? Fixtures.T0 + 2 * issue * step : now,
              now,
              SYMPTOMS[(int) (h % SYMPTOMS.length)],
              ROOT[(int) ((h >>> 8) % ROOT.length)],
              STAGES[(int) ((h >>> 16) % STAGES.length)]);
      e.frameworkVersion = (h >>> 24) % 3 == 0 ? "1." + (h >>> 28) % 4 : null;
      return e;
    }

    private static long mix(long x) {
      x ^= x >>> 33;
      x *= 0xff51afd7ed558ccdL;
      x ^= x >>> 33;
      return x & Long.MAX_VALUE;
    }
  }
}
