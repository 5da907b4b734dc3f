package dev.faultline.infra.relabel;

import dev.faultline.infra.cluster.FlinkRestClient;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.schemas.Topic;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Relabelling history with the classifier the stack runs now: a bounded replay of the system of
 * record ({@code faultline.deliveries}) through the issue pipeline itself ({@link
 * IssuePipelineJob#build} with a bounded {@link dev.faultline.jobs.Replay}), under a consumer group
 * of its own, into the same graph sink. The sink's guards give the guarantees: the newest state of
 * an issue wins, a replayed older state changes nothing, the same state is relabelled, and running
 * it again writes the same values. Progress comes from the replay group's committed offsets
 * (committed at each checkpoint) against the topic's end offsets when it started; a run killed
 * midway and started again with the same group continues from its last checkpoint. Snapshots of the
 * graph's labels before and after give the {@link RelabelReport}.
 */
public final class Reclassify {

  private Reclassify() {}

  /** The report's pseudo-dimension for the classifier version of each issue's labels. */
  public static final String CLASSIFIER_VERSION = "classifierVersion";

  /**
   * The issues a report covers.
   *
   * @param since created at or after (null: no bound)
   * @param until created before (null: no bound)
   * @param framework only this framework (null: all)
   */
  public record Scope(Instant since, Instant until, String framework) {
    public static Scope all() {
      return new Scope(null, null, null);
    }

    /** The same scope as the pipeline's replay filter (travels as job flags to a cluster). */
    public ReplayScope replay() {
      return new ReplayScope(since, until, framework);
    }
  }

  /** How far a replay is: deliveries done of the total, rate and time left. */
  public record Progress(long done, long total, double perSecond, double secondsLeft) {}

  /** Deliveries the replay will read: the topic's end offsets minus the group's committed ones. */
  public static long remaining(JobIo io) throws Exception {
    try (Admin admin = Admin.create(io.kafka().clientProperties())) {
      Map<TopicPartition, Long> end = endOffsets(admin, Topic.DELIVERIES.topicName());
      Map<TopicPartition, Long> done = committed(admin, io.groupId());
      long n = 0;
      for (var e : end.entrySet()) {
        n += Math.max(0, e.getValue() - done.getOrDefault(e.getKey(), 0L));
      }
      return n;
    }
  }

  /**
   * Replays the deliveries topic through the issue pipeline up to its end offsets of now, on the
   * environment the caller runs in (a local mini cluster from the CLI), and blocks until done,
   * reporting progress every {@code everyMillis}. Only the issues and pull requests in the replay's
   * scope are relabelled (every delivery is still read: an issue's facts are anywhere in the
   * topic).
   *
   * @param config the pipeline's configuration; its {@link JobConfig#replay} must be bounded
   * @param started called with the job once it runs (to cancel it, in tests)
   */
  public static void replay(
      JobConfig config, long everyMillis, Consumer<Progress> progress, Consumer<JobClient> started)
      throws Exception {
    if (!config.replay().bounded()) {
      throw new IllegalArgumentException("a replay is bounded: give a JobConfig with Replay.of");
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    IssuePipelineJob.build(env, config);
    String group = config.io().groupId();
    try (Admin admin = Admin.create(config.io().kafka().clientProperties())) {
      Tracker tracker = new Tracker(admin, group);
      JobClient job = env.executeAsync(IssuePipelineJob.replayName(group));
      started.accept(job);
      var result = job.getJobExecutionResult();
      tracker.watch(
          everyMillis,
          progress,
          () -> {
            try {
              result.get(everyMillis, TimeUnit.MILLISECONDS);
              return true;
            } catch (java.util.concurrent.TimeoutException stillRunning) {
              return false;
            }
          });
    }
  }

  /**
   * The same bounded replay as a job on a Flink cluster: uploads the job jar, runs {@link
   * IssuePipelineJob#main} with {@link #clusterProgramArgs}, and polls the job's state through the
   * REST API until it ends, reporting progress (from the replay group's committed offsets, read
   * with Kafka's Admin client as for a local replay) every {@code everyMillis}.
   *
   * @param jobArgs the job's connection flags ({@code --kafka-bootstrap}, {@code --neo4j-*}, {@code
   *     --kafka.X}, {@code --group-id}, ...), as the cluster must see them
   * @param io the same connection and group, as this process reaches Kafka (for the progress)
   * @param started called with the cluster's job id once it is submitted (or found: a replay of the
   *     same group still running on the cluster is followed, not started twice)
   * @return the job's id; it has FINISHED
   * @throws IllegalStateException when the job ended otherwise (FAILED, CANCELED): its group's
   *     committed offsets stay, so running it again with the same group resumes it
   */
  public static String replayOnCluster(
      FlinkRestClient flink,
      Path jar,
      List<String> jobArgs,
      Scope scope,
      JobIo io,
      long everyMillis,
      Consumer<Progress> progress,
      Consumer<String> started)
      throws Exception {
    try (Admin admin = Admin.create(io.kafka().clientProperties())) {
      Tracker tracker = new Tracker(admin, io.groupId());
      // A replay of this group still running (the command was stopped, its job was not): follow
      // it rather than start a second one on the same group and transactional ids.
      var running = flink.activeJob(IssuePipelineJob.replayName(io.groupId()));
      String jarId = null;
      String jobId;
      if (running.isPresent()) {
        jobId = running.get().id();
      } else {
        jarId = flink.uploadJar(jar);
        jobId =
            flink.run(
                jarId,
                new FlinkRestClient.RunRequest(
                    IssuePipelineJob.class.getName(),
                    clusterProgramArgs(jobArgs, scope),
                    0,
                    null,
                    false));
      }
      started.accept(jobId);
      try {
        tracker.watch(
            everyMillis,
            progress,
            () -> {
              String state = flink.jobState(jobId);
              if ("FINISHED".equals(state)) {
                return true;
              }
              if (state.equals("FAILED") || state.equals("CANCELED")) {
                throw new IllegalStateException(
                    "the replay job "
                        + jobId
                        + " on the cluster is "
                        + state
                        + ": "
                        + flink.rootException(jobId));
              }
              Thread.sleep(everyMillis);
              return false;
            });
      } finally {
        if (jarId != null) {
          try {
            flink.deleteJar(jarId);
          } catch (java.io.IOException alreadyGone) {
            // the cluster may have removed it; the replay's outcome does not depend on it
          }
        }
      }
      return jobId;
    }
  }

  /**
   * The program arguments of a replay on a cluster: the job's flags, {@code --replay true}
   * (bounded, named {@link IssuePipelineJob#replayName}) and the scope's flags.
   */
  public static List<String> clusterProgramArgs(List<String> jobArgs, Scope scope) {
    List<String> args = new ArrayList<>(jobArgs);
    args.addAll(List.of("--replay", "true"));
    args.addAll(scope.replay().toArgs());
    return List.copyOf(args);
  }

  /** Progress of a replay from its group's committed offsets against the end offsets at start. */
  private static final class Tracker {
    private final Admin admin;
    private final String group;
    private final Map<TopicPartition, Long> end;
    private final Map<TopicPartition, Long> before;
    private final long total;

    Tracker(Admin admin, String group) throws Exception {
      this.admin = admin;
      this.group = group;
      this.end = endOffsets(admin, Topic.DELIVERIES.topicName());
      this.before = committed(admin, group);
      long n = 0;
      for (var e : end.entrySet()) {
        n += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
      }
      this.total = n;
    }

    /** Calls {@code step} until it says the job ended, reporting progress after each call. */
    void watch(long everyMillis, Consumer<Progress> progress, Callable<Boolean> ended)
        throws Exception {
      long t0 = System.nanoTime();
      while (!ended.call()) {
        Map<TopicPartition, Long> now = committed(admin, group);
        long done = 0;
        for (var e : end.entrySet()) {
          long from = before.getOrDefault(e.getKey(), 0L);
          long at = Math.min(e.getValue(), now.getOrDefault(e.getKey(), from));
          done += Math.max(0, at - from);
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        double rate = done / Math.max(secs, 1e-3);
        progress.accept(
            new Progress(done, total, rate, rate > 0 ? (total - done) / rate : Double.NaN));
      }
      progress.accept(
          new Progress(total, total, total / Math.max((System.nanoTime() - t0) / 1e9, 1e-3), 0));
    }
  }

  private static Map<TopicPartition, Long> endOffsets(Admin admin, String topic) throws Exception {
    var partitions =
        admin
            .describeTopics(List.of(topic))
            .allTopicNames()
            .get(30, TimeUnit.SECONDS)
            .get(topic)
            .partitions();
    Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
    partitions.forEach(
        p -> specs.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
    Map<TopicPartition, Long> end = new HashMap<>();
    admin
        .listOffsets(specs)
        .all()
        .get(30, TimeUnit.SECONDS)
        .forEach((tp, info) -> end.put(tp, info.offset()));
    return end;
  }

  private static Map<TopicPartition, Long> committed(Admin admin, String group) throws Exception {
    Map<TopicPartition, Long> out = new HashMap<>();
    Map<TopicPartition, OffsetAndMetadata> m =
        admin
            .listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata()
            .get(30, TimeUnit.SECONDS);
    m.forEach(
        (tp, o) -> {
          if (o != null) {
            out.put(tp, o.offset());
          }
        });
    return out;
  }
}
