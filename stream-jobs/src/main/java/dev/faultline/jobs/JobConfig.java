package dev.faultline.jobs;

import dev.faultline.graph.GraphConfig;
import dev.faultline.jobs.llm.LlmSettings;
import dev.faultline.jobs.sink.SinkOptions;
import dev.faultline.schemas.Topic;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * Everything a job needs from its deployment, parsed once in {@code main}: the same jar runs on a
 * MiniCluster or a Flink cluster, only these values differ.
 *
 * @param kafkaBootstrap Kafka bootstrap servers
 * @param kafkaProperties extra Kafka client properties (security: {@code security.protocol}, {@code
 *     sasl.*}, {@code ssl.*})
 * @param groupId consumer group of the issue pipeline
 * @param graph Neo4j connection
 * @param sink graph sink batching
 * @param checkpointInterval how often state and offsets are checkpointed
 * @param parallelism job parallelism (0 = the cluster's default)
 * @param checkpointDir durable checkpoint storage (e.g. {@code s3://bucket/faultline}, {@code
 *     file:///data/ckpt}); null leaves it to the cluster's configuration
 * @param llm the language-model tier ({@code FAULTLINE_LLM_*}); {@link LlmSettings#OFF} by default
 */
public record JobConfig(
    String kafkaBootstrap,
    Map<String, String> kafkaProperties,
    String groupId,
    GraphConfig graph,
    SinkOptions sink,
    Duration checkpointInterval,
    int parallelism,
    String checkpointDir,
    LlmSettings llm)
    implements Serializable {

  public JobConfig {
    if (kafkaBootstrap == null || kafkaBootstrap.isBlank()) {
      throw new IllegalArgumentException(
          "Kafka bootstrap servers are empty: pass --kafka-bootstrap HOST:PORT or set FAULTLINE_KAFKA_BOOTSTRAP_SERVERS");
    }
    kafkaProperties = Map.copyOf(kafkaProperties == null ? Map.of() : kafkaProperties);
    llm = llm == null ? LlmSettings.OFF : llm;
  }

  /** A copy with the language-model tier's settings. */
  public JobConfig withLlm(LlmSettings settings) {
    return new JobConfig(
        kafkaBootstrap,
        kafkaProperties,
        groupId,
        graph,
        sink,
        checkpointInterval,
        parallelism,
        checkpointDir,
        settings);
  }

  /** The compacted topic of the language-model tier's answers. */
  public String llmAnswersTopic() {
    return Topic.LLM_ANSWERS.topicName();
  }

  public String deliveriesTopic() {
    return Topic.DELIVERIES.topicName();
  }

  public String classifiedTopic() {
    return Topic.ISSUES_CLASSIFIED.topicName();
  }

  public String deadLetterTopic() {
    return Topic.DEAD_LETTER.topicName();
  }

  /** Kafka client properties: bootstrap plus the extra ones. */
  public Properties kafkaClientProperties() {
    Properties p = new Properties();
    p.putAll(kafkaProperties);
    p.put("bootstrap.servers", kafkaBootstrap);
    return p;
  }

  /**
   * Reads {@code --name value} arguments, falling back to environment variables: {@code
   * --kafka-bootstrap} (FAULTLINE_KAFKA_BOOTSTRAP_SERVERS), {@code --neo4j-uri}
   * (FAULTLINE_NEO4J_URI), {@code --neo4j-user}, {@code --neo4j-password}, {@code
   * --neo4j-database}, {@code --group-id}, {@code --checkpoint-interval-ms}, {@code --parallelism},
   * {@code --checkpoint-dir} (FAULTLINE_CHECKPOINT_DIR), {@code --sink-batch-size}, {@code
   * --sink-flush-ms}; {@code --kafka.X value} passes Kafka client property X (e.g. {@code
   * --kafka.security.protocol SASL_SSL}). The language-model tier comes from the {@code
   * FAULTLINE_LLM_*} environment only (its API key never travels in program arguments).
   */
  public static JobConfig fromArgs(String[] args, Map<String, String> env) {
    JobArgs a = JobArgs.parse(args);
    SinkOptions sink =
        new SinkOptions(
            Integer.parseInt(
                a.get("sink-batch-size", Integer.toString(SinkOptions.DEFAULTS.batchSize()))),
            Duration.ofMillis(
                Long.parseLong(
                    a.get(
                        "sink-flush-ms",
                        Long.toString(SinkOptions.DEFAULTS.flushInterval().toMillis())))),
            SinkOptions.DEFAULTS.maxBackoff());
    return new JobConfig(
        a.kafkaBootstrap(env),
        a.kafka(),
        a.get("group-id", "faultline-issue-pipeline"),
        a.graph(env),
        sink,
        Duration.ofMillis(Long.parseLong(a.get("checkpoint-interval-ms", "5000"))),
        Integer.parseInt(a.get("parallelism", "0")),
        a.get("checkpoint-dir", env.get("FAULTLINE_CHECKPOINT_DIR")),
        LlmSettings.fromEnvironment(env));
  }
}
