package dev.faultline.stats;

import dev.faultline.embedded.testing.NativeThreadCpu;
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
 * With {@code -Dfaultline.bench.rounds=N} it runs N rounds (default 2; the last is reported); each
 * round prints, per job, the JIT's compilation time and the GC's collection time within it (both as
 * the JVM's MXBeans count them: elapsed time, which on a busy machine includes time the threads
 * waited for a core), and, on Linux, the CPU time the JIT compiler threads and the GC threads used
 * in it (from /proc, {@link NativeThreadCpu}; a compiler thread that exits within the round takes
 * its time with it, so that figure is a lower bound).
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
    int rounds = Integer.getInteger("faultline.bench.rounds", 2);
    if (rounds < 1) {
      throw new IllegalArgumentException("faultline.bench.rounds must be at least 1: " + rounds);
    }
    double pass = 0;
    double stats = 0;
    double passCpu = 0;
    double statsCpu = 0;
    for (int round = 1; round <= rounds; round++) {
      long cpu = processCpuNanos();
      long jit = jitMillis();
      long gc = gcMillis();
      java.util.Map<String, long[]> threads = NativeThreadCpu.snapshot();
      pass = run(n, config, false);
      passCpu = (processCpuNanos() - cpu) / 1e3 / n;
      long passJit = jitMillis() - jit;
      long passGc = gcMillis() - gc;
      long[] passThreads = compilerAndGcCpuMillis(threads, NativeThreadCpu.snapshot());
      cpu = processCpuNanos();
      jit = jitMillis();
      gc = gcMillis();
      threads = NativeThreadCpu.snapshot();
      stats = run(n, config, true);
      statsCpu = (processCpuNanos() - cpu) / 1e3 / n;
      long statsJit = jitMillis() - jit;
      long statsGc = gcMillis() - gc;
      long[] statsThreads = compilerAndGcCpuMillis(threads, NativeThreadCpu.snapshot());
      System.out.printf(
          "round %d: pass-through %,.0f events/s (%.1f CPU-µs/event); category-stats %,.0f events/s"
              + " (%.1f CPU-µs/event; %.1f%% of pass-through)%n",
          round, pass, passCpu, stats, statsCpu, 100 * stats / pass);
      System.out.printf(
          "round %d, JIT and GC: pass-through compile %d ms (compiler threads' CPU %d ms), GC %d ms"
              + " (GC threads' CPU %d ms); category-stats compile %d ms (compiler threads' CPU %d"
              + " ms), GC %d ms (GC threads' CPU %d ms)%n",
          round,
          passJit,
          passThreads[0],
          passGc,
          passThreads[1],
          statsJit,
          statsThreads[0],
          statsGc,
          statsThreads[1]);
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

  /** The JIT compilers' accumulated compilation time (summed over compiler threads), in ms. */
  private static long jitMillis() {
    java.lang.management.CompilationMXBean jit =
        java.lang.management.ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit.getTotalCompilationTime()
        : -1;
  }

  /** The collectors' accumulated collection time, in ms. */
  private static long gcMillis() {
    long sum = 0;
    for (java.lang.management.GarbageCollectorMXBean gc :
        java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      sum += Math.max(0, gc.getCollectionTime());
    }
    return sum;
  }

  /**
   * CPU ms the JVM's compiler threads and GC threads used between two {@link
   * NativeThreadCpu#snapshot}s: {compiler threads, GC threads}.
   */
  private static long[] compilerAndGcCpuMillis(
      java.util.Map<String, long[]> before, java.util.Map<String, long[]> after) {
    long compiler = 0;
    long gc = 0;
    for (java.util.Map.Entry<String, Long> e : NativeThreadCpu.groups(before, after).entrySet()) {
      if (e.getKey().startsWith("JIT:")) {
        compiler += e.getValue();
      } else if (e.getKey().startsWith("GC:")) {
        gc += e.getValue();
      }
    }
    return new long[] {compiler / 1_000_000, gc / 1_000_000};
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
