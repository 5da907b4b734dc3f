package dev.faultline.jobs;

import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.jobs.sink.DeadLetterSerializer;
import dev.faultline.jobs.sink.Neo4jIssueSink;
import dev.faultline.jobs.source.RawDeliveryDeserializer;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/** Wires the issue pipeline to Kafka and Neo4j. {@link #main} is the entry point on a Flink cluster. */
public final class IssuePipelineJob {
  public static final String NAME = "faultline-issue-pipeline";

  private IssuePipelineJob() {}

  public static void main(String[] args) throws Exception {
    JobConfig config = JobConfig.fromArgs(args, System.getenv());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    build(env, config);
    env.execute(NAME);
  }

  /** Adds the job's sources, pipeline and sinks to {@code env}. */
  public static void build(StreamExecutionEnvironment env, JobConfig config) {
    env.enableCheckpointing(config.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    if (config.parallelism() > 0) {
      env.setParallelism(config.parallelism());
    }
    KafkaSource<RawDelivery> source =
        KafkaSource.<RawDelivery>builder()
            .setBootstrapServers(config.kafkaBootstrap())
            .setProperties(config.kafkaClientProperties())
            .setTopics(config.deliveriesTopic())
            .setGroupId(config.groupId())
            // First start: everything in the raw topic. Later starts: the checkpoint's offsets, else the group's.
            .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
            .setDeserializer(new RawDeliveryDeserializer())
            .build();
    IssuePipeline.Outputs out =
        IssuePipeline.apply(
            env.fromSource(source, WatermarkStrategy.noWatermarks(), "deliveries").uid("deliveries-source"));
    out.issues()
        .sinkTo(new Neo4jIssueSink(config.graph(), config.sink(), config.kafkaClientProperties(), config.deadLetterTopic()))
        .uid("neo4j-issue-sink")
        .name("neo4j issues");
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
