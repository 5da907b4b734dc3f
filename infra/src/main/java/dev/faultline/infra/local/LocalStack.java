package dev.faultline.infra.local;

import dev.faultline.dashboard.Dashboard;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.embedded.EmbeddedNeo4j;
import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.graph.GraphConfig;
import dev.faultline.graph.GraphSchema;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.jobs.common.SinkOptions;
import dev.faultline.jobs.llm.LlmSettings;
import dev.faultline.schemas.KafkaSettings;
import dev.faultline.schemas.Topic;
import dev.faultline.stats.CategoryStatsJob;
import dev.faultline.stats.StatsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.kafka.clients.admin.Admin;
import org.neo4j.driver.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole system in one process: Kafka (KRaft), Neo4j, a Flink MiniCluster running the jobs, and
 * the webhook receiver, all on loopback, all state under one data directory.
 */
public final class LocalStack implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalStack.class);

  /** Partitions of each topic on the local broker; parallelism 2 of the jobs reads them evenly. */
  static final int PARTITIONS = 4;

  private final LocalOptions options;
  private final LocalSecrets secrets;
  private final List<AutoCloseable> started = new ArrayList<>();
  private EmbeddedKafka kafka;
  private Admin kafkaAdmin;
  private EmbeddedNeo4j neo4j;
  private Driver driver;
  private LocalFlink flink;
  private JobID pipelineJob;
  private JobID statsJob;
  private StatsConfig stats;
  private LocalReceiver receiver;

  private LocalStack(LocalOptions options, LocalSecrets secrets) {
    this.options = options;
    this.secrets = secrets;
  }

  /** Starts everything, in dependency order; on failure stops what was started and rethrows. */
  public static LocalStack start(LocalOptions options, Map<String, String> env) throws Exception {
    Path dataDir = options.dataDir().toAbsolutePath();
    Files.createDirectories(dataDir);
    LocalStack stack = new LocalStack(options, LocalSecrets.resolve(dataDir, env));
    try {
      stack.startAll(dataDir, env);
      return stack;
    } catch (Exception | Error e) {
      stack.close();
      throw e;
    }
  }

  private void startAll(Path dataDir, Map<String, String> env) throws Exception {
    // Read before anything starts: a bad FAULTLINE_MIN_CONFIDENCE fails fast with what to give.
    ConfidencePolicy confidence = ConfidencePolicy.fromEnvironment(env, System.getProperties());
    kafka = EmbeddedKafka.start(dataDir.resolve("kafka"), options.kafkaPort());
    started.add(() -> kafka.close());
    Map<String, Map<String, String>> topics = new java.util.LinkedHashMap<>();
    Arrays.stream(Topic.values()).forEach(t -> topics.put(t.topicName(), t.configs()));
    kafka.createTopics(PARTITIONS, topics); // faultline.llm-answers compacted
    kafkaAdmin = kafka.admin();
    started.add(kafkaAdmin);

    neo4j =
        EmbeddedNeo4j.start(
            dataDir.resolve("neo4j"),
            options.boltPort(),
            options.neo4jHttpPort(),
            secrets.neo4jPassword());
    started.add(() -> neo4j.close());
    GraphConfig graph =
        new GraphConfig(
            neo4j.boltUri().toString(), EmbeddedNeo4j.USER, secrets.neo4jPassword(), "neo4j");
    driver = graph.openDriver();
    started.add(driver);
    new GraphSchema(driver, graph.database()).migrate();
    Dashboard dashboard =
        new Dashboard(
            new QueryLibrary(driver, graph.database(), QueryLibrary.DEFAULT_TIMEOUT, confidence),
            Dashboard.DEFAULT_POLL_INTERVAL,
            // "find issues like this": the pipeline's encoder, loaded on the first search
            text -> dev.faultline.classifier.learned.MiniLmEmbedder.shared().embed(text));
    started.add(dashboard);

    flink = LocalFlink.start(dataDir.resolve("flink"), 4, options.flinkRestPort());
    started.add(flink);
    JobConfig job =
        new JobConfig(
            new JobIo(
                KafkaSettings.of(kafka.bootstrapServers()),
                JobConfig.DEFAULTS.groupId(),
                graph,
                SinkOptions.DEFAULTS,
                JobIo.Checkpoints.every(Duration.ofSeconds(5)),
                2),
            ClassifierTier.fromEnvironment(env),
            LlmSettings.fromEnvironment(env), // off unless FAULTLINE_LLM_ENDPOINT is set
            Replay.LIVE);
    pipelineJob = flink.submit(IssuePipelineJob.NAME, env2 -> IssuePipelineJob.build(env2, job));
    started.add(() -> flink.checkpointAndCancel(pipelineJob, Duration.ofSeconds(10)));
    flink.awaitRunning(pipelineJob, Duration.ofSeconds(60));
    stats = statsConfig(kafka.bootstrapServers(), graph, confidence);
    statsJob = flink.submit(CategoryStatsJob.NAME, env2 -> CategoryStatsJob.build(env2, stats));
    started.add(() -> flink.checkpointAndCancel(statsJob, Duration.ofSeconds(10)));
    flink.awaitRunning(statsJob, Duration.ofSeconds(60));

    receiver =
        LocalReceiver.start(
            options,
            secrets,
            kafka,
            dataDir,
            env,
            List.of(
                LocalReceiver.check("kafka", this::kafkaProblem),
                LocalReceiver.check("neo4j", this::neo4jProblem),
                LocalReceiver.check("flink-jobs", this::jobProblem)),
            List.of(dashboard::register));
    started.add(receiver);
  }

  /**
   * The statistics job's settings on the local stack: the defaults, checkpointed every 5 s,
   * parallelism 1, idle partitions released after 10 s, counting the labels {@code confidence}
   * passes.
   */
  static StatsConfig statsConfig(
      String kafkaBootstrap, GraphConfig graph, ConfidencePolicy confidence) {
    JobIo io =
        new JobIo(
            KafkaSettings.of(kafkaBootstrap),
            StatsConfig.IO_DEFAULTS.groupId(),
            graph,
            SinkOptions.DEFAULTS,
            JobIo.Checkpoints.every(Duration.ofSeconds(5)),
            1);
    StatsConfig.EventTime d = StatsConfig.EventTime.DEFAULTS;
    // Locally most of the four partitions sit idle between deliveries: let them stop holding the
    // watermark soon.
    return StatsConfig.defaults(io)
        .withEventTime(
            new StatsConfig.EventTime(
                d.allowedLateness(), d.outOfOrderness(), Duration.ofSeconds(10)))
        .withConfidence(confidence);
  }

  /**
   * Fault drill: stops the broker, waits {@code down}, starts it again on the same log directory
   * and port.
   */
  public void restartKafka(Duration down) throws Exception {
    int port = kafka.port();
    kafka.close();
    Thread.sleep(down.toMillis());
    kafka = EmbeddedKafka.start(dataDir().resolve("kafka"), port);
  }

  /** Fault drill: stops Neo4j, waits {@code down}, starts it again on the same store and ports. */
  public void restartNeo4j(Duration down) throws Exception {
    int bolt = neo4j.boltUri().getPort();
    int http = neo4j.httpUri().getPort();
    neo4j.close();
    Thread.sleep(down.toMillis());
    neo4j = EmbeddedNeo4j.start(dataDir().resolve("neo4j"), bolt, http, secrets.neo4jPassword());
  }

  /**
   * Fault drill: kills the Flink task manager (every running task fails) and starts a fresh one.
   */
  public void failTaskManager() throws Exception {
    flink.cluster().terminateTaskManager(0).get(30, TimeUnit.SECONDS);
    flink.cluster().startTaskManager();
  }

  Optional<String> kafkaProblem() {
    if (kafka == null || !kafka.isRunning()) {
      return Optional.of("broker not running");
    }
    try {
      kafkaAdmin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
      return Optional.empty();
    } catch (Exception e) {
      return Optional.of("broker not answering: " + e.getMessage());
    }
  }

  Optional<String> neo4jProblem() {
    try {
      driver.verifyConnectivity();
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of("not reachable: " + e.getMessage());
    }
  }

  Optional<String> jobProblem() {
    List<String> problems = new ArrayList<>();
    JobStatus pipeline = flink.status(pipelineJob);
    if (pipeline != JobStatus.RUNNING) {
      problems.add(IssuePipelineJob.NAME + " is " + pipeline);
    }
    JobStatus statistics = flink.status(statsJob);
    if (statistics != JobStatus.RUNNING) {
      problems.add(CategoryStatsJob.NAME + " is " + statistics);
    }
    return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
  }

  public EmbeddedKafka kafka() {
    return kafka;
  }

  public EmbeddedNeo4j neo4j() {
    return neo4j;
  }

  public LocalFlink flink() {
    return flink;
  }

  public JobID pipelineJob() {
    return pipelineJob;
  }

  public JobID statsJob() {
    return statsJob;
  }

  /** The settings the statistics job runs with. */
  public StatsConfig statsConfig() {
    return stats;
  }

  public LocalReceiver receiver() {
    return receiver;
  }

  public Path dataDir() {
    return options.dataDir().toAbsolutePath();
  }

  public LocalSecrets secrets() {
    return secrets;
  }

  /**
   * Stops everything in reverse start order: receiver, job (after a final checkpoint), Flink,
   * Neo4j, Kafka.
   */
  @Override
  public void close() {
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        LOG.warn(
            "Stopping {} failed: {}", started.get(i).getClass().getSimpleName(), e.getMessage());
      }
    }
    started.clear();
  }
}
