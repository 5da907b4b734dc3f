package dev.faultline.jobs;

import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.PullRequestWriter;
import dev.faultline.graph.ReleaseWriter;
import dev.faultline.jobs.llm.AnswerStore;
import dev.faultline.jobs.llm.KafkaAnswerStore;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.jobs.sink.ClassifiedIssueSerializer;
import dev.faultline.jobs.sink.DeadLetterSerializer;
import dev.faultline.jobs.sink.Neo4jBatchSink;
import dev.faultline.jobs.source.RawDeliveryDeserializer;
import dev.faultline.schemas.Topic;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * Wires the issue pipeline to Kafka and Neo4j. {@link #main} is the entry point on a Flink cluster.
 */
public final class IssuePipelineJob {
  public static final String NAME = "faultline-issue-pipeline";

  /**
   * Partitions of the answers topic when the job creates it: every subtask reads all of it anyway.
   */
  static final int ANSWER_PARTITIONS = 4;

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(IssuePipelineJob.class);

  private IssuePipelineJob() {}

  /**
   * The job's flags are {@link JobConfig#fromArgs}'s; with {@code --replay true} it is a bounded
   * replay of the deliveries topic ({@code faultline reclassify} on a cluster): it stops at the end
   * offsets of when it started, relabels only the {@link ReplayScope} of {@code --replay-since},
   * {@code --replay-until} and {@code --replay-framework}, and is named {@link #replayName} (not
   * {@link #NAME}, so it is never taken for the live pipeline); {@code --replay-resume} resumes a
   * killed attempt ({@link ReplayResume}).
   */
  public static void main(String[] args) throws Exception {
    JobArgs named = JobArgs.parse(args);
    JobConfig config = JobConfig.fromArgs(args, System.getenv());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    boolean replay = ReplayScope.isReplay(named);
    build(
        env,
        config,
        replay,
        replay ? ReplayScope.fromArgs(named) : ReplayScope.ALL,
        replay,
        replay ? ReplayResume.fromArgs(named) : ReplayResume.NONE);
    env.execute(replay ? replayName(config.groupId()) : NAME);
  }

  /** The name of a bounded replay's job: {@code faultline-reclassify (<group>)}. */
  public static String replayName(String groupId) {
    return "faultline-reclassify (" + groupId + ")";
  }

  private static <R> Neo4jBatchSink<R> graphSink(
      String stage, Neo4jBatchSink.WriterFactory<R> writers, JobConfig config) {
    return new Neo4jBatchSink<>(
        stage,
        config.graph(),
        config.sink(),
        writers,
        config.kafkaClientProperties(),
        config.deadLetterTopic());
  }

  /** Adds the job's sources, pipeline and sinks to {@code env}. */
  public static void build(StreamExecutionEnvironment env, JobConfig config) {
    build(env, config, false);
  }

  /**
   * As {@link #build(StreamExecutionEnvironment, JobConfig)}; when {@code bounded}, the source
   * stops at the offsets that are latest when the job starts, so the job ends once it has processed
   * what the topic held (a replay, a re-classification of history, a benchmark).
   */
  public static void build(StreamExecutionEnvironment env, JobConfig config, boolean bounded) {
    build(env, config, bounded, ReplayScope.ALL);
  }

  /**
   * As {@link #build(StreamExecutionEnvironment, JobConfig, boolean)}; a bounded replay classifies
   * and writes only the issues and pull requests in {@code scope}.
   *
   * @throws IllegalArgumentException when a scope is given to the live (unbounded) job, which must
   *     keep every issue
   */
  public static void build(
      StreamExecutionEnvironment env, JobConfig config, boolean bounded, ReplayScope scope) {
    build(env, config, bounded, scope, bounded);
  }

  /**
   * As {@link #build(StreamExecutionEnvironment, JobConfig, boolean)}, every issue in scope; with
   * {@code storedVectors} (the default of a bounded job) the learned classifier reads each text
   * vector from the graph when the graph has it under the text's key.
   */
  public static void build(
      StreamExecutionEnvironment env, JobConfig config, boolean bounded, boolean storedVectors) {
    build(env, config, bounded, ReplayScope.ALL, storedVectors);
  }

  /**
   * As {@link #build(StreamExecutionEnvironment, JobConfig, boolean, ReplayScope)}; with {@code
   * storedVectors} (the default of a bounded job: a replay of history) the learned classifier reads
   * each text vector from the graph when the graph has it under the text's key ({@code
   * dev.faultline.jobs.classify.Neo4jVectorStore}), and encodes only the texts it has not seen.
   */
  public static void build(
      StreamExecutionEnvironment env,
      JobConfig config,
      boolean bounded,
      ReplayScope scope,
      boolean storedVectors) {
    build(env, config, bounded, scope, storedVectors, ReplayResume.NONE);
  }

  /**
   * As {@link #build(StreamExecutionEnvironment, JobConfig, boolean, ReplayScope, boolean)},
   * resuming a killed attempt of a bounded replay: the source reads the topic from its start, and
   * the deliveries {@code resume} says the attempt handled are folded into their issues' state
   * again, not classified or written again ({@link ReplayResume}).
   *
   * @throws IllegalArgumentException a scope or a resume given to the live (unbounded) job
   */
  public static void build(
      StreamExecutionEnvironment env,
      JobConfig config,
      boolean bounded,
      ReplayScope scope,
      boolean storedVectors,
      ReplayResume resume) {
    if (!bounded && !resume.isNone()) {
      throw new IllegalArgumentException(
          "--replay-resume resumes a bounded replay only (--replay true)");
    }
    if (!bounded && !scope.isAll()) {
      throw new IllegalArgumentException(
          "A scope (--replay-since/--replay-until/--replay-framework) narrows a bounded replay"
              + " only (--replay true); the live pipeline keeps every issue");
    }
    configure(env, config);
    KafkaSource<RawDelivery> source = deliveriesSource(config, bounded, resume);
    AnswerStore.Factory answers = config.llm().enabled() ? answerStore(config) : null;
    IssuePipeline.Outputs out =
        IssuePipeline.apply(
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "deliveries")
                .uid("deliveries-source"),
            config.llm(),
            answers,
            scope,
            storedVectors ? config.graph() : null,
            resume);
    addSinks(out, config);
  }

  /** Exactly-once checkpoints (to files when a directory is set) and the parallelism. */
  private static void configure(StreamExecutionEnvironment env, JobConfig config) {
    env.enableCheckpointing(config.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    if (config.checkpointDir() != null) {
      // Issue state outgrows the JobManager's memory-backed storage (5 MB) quickly: checkpoints go
      // to files.
      Configuration storage = new Configuration();
      storage.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
      storage.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, config.checkpointDir());
      env.configure(storage);
    }
    if (config.parallelism() > 0) {
      env.setParallelism(config.parallelism());
    }
  }

  private static KafkaSource<RawDelivery> deliveriesSource(
      JobConfig config, boolean bounded, ReplayResume resume) {
    var sourceBuilder =
        KafkaSource.<RawDelivery>builder()
            .setBootstrapServers(config.kafkaBootstrap())
            .setProperties(config.kafkaClientProperties())
            .setTopics(config.deliveriesTopic())
            .setGroupId(config.groupId())
            // First start: everything in the raw topic. Later starts: the checkpoint's offsets,
            // else the group's. A resumed replay reads from the start: it folds what its killed
            // attempt handled into the issues' state again.
            .setStartingOffsets(
                resume.isNone()
                    ? OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST)
                    : OffsetsInitializer.earliest())
            .setDeserializer(new RawDeliveryDeserializer());
    if (bounded) {
      sourceBuilder.setBounded(OffsetsInitializer.latest());
    }
    return sourceBuilder.build();
  }

  /** The language-model tier's answer store (a compacted topic). */
  private static AnswerStore.Factory answerStore(JobConfig config) {
    // Where the job is built (client or JobManager), once: the answers topic exists and is
    // compacted.
    KafkaAnswerStore.ensureTopic(
        config.kafkaClientProperties(),
        config.llmAnswersTopic(),
        ANSWER_PARTITIONS,
        Topic.LLM_ANSWERS.configs());
    AnswerStore.Factory answers =
        KafkaAnswerStore.factory(config.kafkaClientProperties(), config.llmAnswersTopic());
    LOG.info("Issue pipeline with the language-model tier: {}", config.llm());
    return answers;
  }

  /** Neo4j for issues, pull requests and releases; the classified topic; the dead letters. */
  private static void addSinks(IssuePipeline.Outputs out, JobConfig config) {
    out.issues()
        .sinkTo(graphSink("issue-pipeline/neo4j-issues", IssueWriter::new, config))
        .uid("neo4j-issue-sink")
        .name("neo4j issues");
    out.pullRequests()
        .sinkTo(graphSink("issue-pipeline/neo4j-pull-requests", PullRequestWriter::new, config))
        .uid("neo4j-pull-request-sink")
        .name("neo4j pull requests");
    out.releases()
        .sinkTo(graphSink("issue-pipeline/neo4j-releases", ReleaseWriter::new, config))
        .uid("neo4j-release-sink")
        .name("neo4j releases");
    Properties classifiedProducer = config.kafkaClientProperties();
    // Below the broker's transaction.max.timeout.ms (15 min by default), above any checkpoint
    // pause.
    classifiedProducer.setProperty("transaction.timeout.ms", "900000");
    out.classified()
        .sinkTo(
            KafkaSink.<ClassifiedIssueEvent>builder()
                .setKafkaProducerConfig(classifiedProducer)
                .setRecordSerializer(new ClassifiedIssueSerializer(config.classifiedTopic()))
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(config.groupId() + "-classified")
                .build())
        .uid("classified-issue-sink")
        .name("classified issues");
    out.rejected()
        .sinkTo(
            KafkaSink.<dev.faultline.jobs.records.Rejected>builder()
                .setKafkaProducerConfig(config.kafkaClientProperties())
                .setRecordSerializer(new DeadLetterSerializer(config.deadLetterTopic()))
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build())
        .uid("dead-letter-sink")
        .name("dead letters");
  }
}
