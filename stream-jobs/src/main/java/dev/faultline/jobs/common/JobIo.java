package dev.faultline.jobs.common;

import dev.faultline.graph.GraphConfig;
import dev.faultline.schemas.KafkaSettings;
import dev.faultline.schemas.Topic;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * What every job needs from its deployment to read and write: the same jar runs on a MiniCluster or
 * a Flink cluster, only these values differ. Built once at the edge (a job's {@code main} from its
 * flags, {@link JobArgs#io}; the local stack and {@code faultline reclassify} directly) and
 * embedded in each job's config.
 *
 * @param kafka the Kafka cluster and its client properties
 * @param groupId consumer group of the job's source (also the base of its transactional ids where
 *     the job has no other)
 * @param graph the Neo4j graph
 * @param sink graph sink batching and retry
 * @param checkpoints how often and where state and offsets are checkpointed
 * @param parallelism job parallelism (0 = the cluster's default)
 */
public record JobIo(
    KafkaSettings kafka,
    String groupId,
    GraphConfig graph,
    SinkOptions sink,
    Checkpoints checkpoints,
    int parallelism)
    implements Serializable {

  /** The environment variable naming the checkpoint directory when no flag gives one. */
  public static final String ENV_CHECKPOINT_DIR = "FAULTLINE_CHECKPOINT_DIR";

  public JobIo {
    Objects.requireNonNull(kafka, "kafka");
    Objects.requireNonNull(graph, "graph");
    Objects.requireNonNull(sink, "sink");
    Objects.requireNonNull(checkpoints, "checkpoints");
    if (groupId == null || groupId.isBlank()) {
      throw new IllegalArgumentException("consumer group is empty: pass --group-id NAME");
    }
    if (parallelism < 0) {
      throw new IllegalArgumentException(
          "parallelism must be 0 (default) or more, was " + parallelism);
    }
  }

  /**
   * How often and where a job checkpoints.
   *
   * @param interval how often state and offsets are checkpointed (also how often the exactly-once
   *     Kafka sinks commit)
   * @param directory durable checkpoint storage (e.g. {@code s3://bucket/faultline}, {@code
   *     file:///data/ckpt}); null leaves it to the cluster's configuration
   */
  public record Checkpoints(Duration interval, String directory) implements Serializable {
    public Checkpoints {
      if (interval == null || interval.toMillis() < 10) {
        throw new IllegalArgumentException(
            "checkpoint interval must be at least 10 ms, was " + interval);
      }
    }

    /** Every {@code interval}, where the cluster's configuration says. */
    public static Checkpoints every(Duration interval) {
      return new Checkpoints(interval, null);
    }
  }

  /** What a job's flags fall back to where they name nothing: its group and checkpoint interval. */
  public record Defaults(String groupId, Duration checkpointInterval) {}

  /**
   * A graph sink of this job's rows: batched as {@link #sink()} says, into {@link #graph()}, rows
   * it cannot write to the dead-letter topic of {@link #kafka()}.
   *
   * @param stage the stage its dead letters name
   */
  public <R> Neo4jBatchSink<R> graphSink(String stage, Neo4jBatchSink.WriterFactory<R> writers) {
    return new Neo4jBatchSink<>(
        stage, graph, sink, writers, kafka.clientProperties(), Topic.DEAD_LETTER.topicName());
  }

  /** Exactly-once checkpoints (to files when a directory is set) and the parallelism. */
  public void configure(StreamExecutionEnvironment env) {
    env.enableCheckpointing(checkpoints.interval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
    if (checkpoints.directory() != null) {
      // Issue state outgrows the JobManager's memory-backed storage (5 MB) quickly: checkpoints go
      // to files.
      Configuration storage = new Configuration();
      storage.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
      storage.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.directory());
      env.configure(storage);
    }
    if (parallelism > 0) {
      env.setParallelism(parallelism);
    }
  }
}
