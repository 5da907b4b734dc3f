package dev.faultline.jobs;

import dev.faultline.graph.IssueWriter;
import dev.faultline.graph.PullRequestWriter;
import dev.faultline.graph.ReleaseWriter;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.jobs.common.DeadLetterSerializer;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.jobs.llm.AnswerStore;
import dev.faultline.jobs.llm.KafkaAnswerStore;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.jobs.sink.ClassifiedIssueSerializer;
import dev.faultline.jobs.source.RawDeliveryDeserializer;
import dev.faultline.schemas.Topic;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
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
   * {@link #NAME}, so it is never taken for the live pipeline).
   */
  public static void main(String[] args) throws Exception {
    JobConfig config = JobConfig.fromArgs(args, System.getenv());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    build(env, config);
    env.execute(config.replay().bounded() ? replayName(config.io().groupId()) : NAME);
  }

  /** The name of a bounded replay's job: {@code faultline-reclassify (<group>)}. */
  public static String replayName(String groupId) {
    return "faultline-reclassify (" + groupId + ")";
  }

  /**
   * Adds the job's sources, pipeline and sinks to {@code env}: live, or the bounded replay {@link
   * JobConfig#replay} names (its source stops at the offsets that are latest when the job starts,
   * so the job ends once it has processed what the topic held).
   */
  public static void build(StreamExecutionEnvironment env, JobConfig config) {
    JobIo io = config.io();
    io.configure(env);
    KafkaSource<RawDelivery> source = deliveriesSource(io, config.replay().bounded());
    AnswerStore.Factory answers = config.llm().enabled() ? answerStore(config) : null;
    IssuePipeline.Outputs out =
        IssuePipeline.apply(
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "deliveries")
                .uid("deliveries-source"),
            config.pipelineSettings(answers));
    addSinks(out, io);
  }

  private static KafkaSource<RawDelivery> deliveriesSource(JobIo io, boolean bounded) {
    var sourceBuilder =
        KafkaSource.<RawDelivery>builder()
            .setBootstrapServers(io.kafka().bootstrap())
            .setProperties(io.kafka().clientProperties())
            .setTopics(Topic.DELIVERIES.topicName())
            .setGroupId(io.groupId())
            // First start: everything in the raw topic. Later starts: the checkpoint's offsets,
            // else the group's.
            .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
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
    Properties kafka = config.io().kafka().clientProperties();
    KafkaAnswerStore.ensureTopic(
        kafka, Topic.LLM_ANSWERS.topicName(), ANSWER_PARTITIONS, Topic.LLM_ANSWERS.configs());
    AnswerStore.Factory answers = KafkaAnswerStore.factory(kafka, Topic.LLM_ANSWERS.topicName());
    LOG.info("Issue pipeline with the language-model tier: {}", config.llm());
    return answers;
  }

  /** Neo4j for issues, pull requests and releases; the classified topic; the dead letters. */
  private static void addSinks(IssuePipeline.Outputs out, JobIo io) {
    out.issues()
        .sinkTo(io.graphSink("issue-pipeline/neo4j-issues", IssueWriter::new))
        .uid("neo4j-issue-sink")
        .name("neo4j issues");
    out.pullRequests()
        .sinkTo(io.graphSink("issue-pipeline/neo4j-pull-requests", PullRequestWriter::new))
        .uid("neo4j-pull-request-sink")
        .name("neo4j pull requests");
    out.releases()
        .sinkTo(io.graphSink("issue-pipeline/neo4j-releases", ReleaseWriter::new))
        .uid("neo4j-release-sink")
        .name("neo4j releases");
    Properties classifiedProducer = io.kafka().clientProperties();
    // Below the broker's transaction.max.timeout.ms (15 min by default), above any checkpoint
    // pause.
    classifiedProducer.setProperty("transaction.timeout.ms", "900000");
    out.classified()
        .sinkTo(
            KafkaSink.<ClassifiedIssueEvent>builder()
                .setKafkaProducerConfig(classifiedProducer)
                .setRecordSerializer(
                    new ClassifiedIssueSerializer(Topic.ISSUES_CLASSIFIED.topicName()))
                .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .setTransactionalIdPrefix(io.groupId() + "-classified")
                .build())
        .uid("classified-issue-sink")
        .name("classified issues");
    out.rejected()
        .sinkTo(
            KafkaSink.<dev.faultline.jobs.common.Rejected>builder()
                .setKafkaProducerConfig(io.kafka().clientProperties())
                .setRecordSerializer(new DeadLetterSerializer(Topic.DEAD_LETTER.topicName()))
                .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build())
        .uid("dead-letter-sink")
        .name("dead letters");
  }
}
