package dev.faultline.infra.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flink MiniCluster on loopback whose jobs checkpoint under a data directory and resume from
 * their latest retained checkpoint when submitted again, so a restart of the local stack loses
 * nothing and doubles nothing.
 */
public final class LocalFlink implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalFlink.class);

  private final MiniCluster cluster;
  private final Path checkpointRoot;
  private final Configuration configuration;

  private LocalFlink(MiniCluster cluster, Path checkpointRoot, Configuration configuration) {
    this.cluster = cluster;
    this.checkpointRoot = checkpointRoot;
    this.configuration = configuration;
  }

  /**
   * Starts a MiniCluster with {@code slots} task slots; checkpoints go under {@code
   * dataDir/checkpoints}.
   */
  public static LocalFlink start(Path dataDir, int slots, int restPort) throws Exception {
    Path checkpoints = dataDir.resolve("checkpoints").toAbsolutePath();
    Files.createDirectories(checkpoints);
    Configuration conf = new Configuration();
    // Loopback only: the MiniCluster binds on all interfaces by default.
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_PORT, Integer.toString(restPort));
    conf.set(JobManagerOptions.ADDRESS, "127.0.0.1");
    conf.set(JobManagerOptions.BIND_HOST, "127.0.0.1");
    conf.set(TaskManagerOptions.HOST, "127.0.0.1");
    conf.set(TaskManagerOptions.BIND_HOST, "127.0.0.1");
    conf.set(TaskManagerOptions.NUM_TASK_SLOTS, slots);
    conf.set(StateBackendOptions.STATE_BACKEND, "hashmap");
    conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
    conf.set(
        CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 2);
    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(slots)
                .build());
    cluster.start();
    LOG.info("Flink MiniCluster started with {} slots, checkpoints in {}", slots, checkpoints);
    return new LocalFlink(cluster, checkpoints, conf);
  }

  /**
   * Builds a job with {@code wiring} and submits it under a job id fixed by its name, restoring
   * from the newest retained checkpoint of an earlier run when there is one.
   */
  public JobID submit(String name, Consumer<StreamExecutionEnvironment> wiring) throws Exception {
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(new Configuration(configuration));
    wiring.accept(env);
    StreamGraph graph = env.getStreamGraph();
    graph.setJobName(name);
    JobID jobId = jobIdOf(name);
    graph.setJobId(jobId);
    Optional<Path> restore = latestCheckpoint(checkpointRoot.resolve(jobId.toHexString()));
    restore.ifPresent(
        path -> {
          LOG.info("Resuming {} from checkpoint {}", name, path);
          graph.setSavepointRestoreSettings(
              SavepointRestoreSettings.forPath(path.toUri().toString(), true));
        });
    cluster.submitJob(graph).get(60, TimeUnit.SECONDS);
    LOG.info("Submitted job {} ({})", name, jobId);
    return jobId;
  }

  /** A stable id per job name, so its checkpoints are found again after a restart. */
  static JobID jobIdOf(String name) {
    UUID uuid = UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
    return new JobID(uuid.getLeastSignificantBits(), uuid.getMostSignificantBits());
  }

  /**
   * The newest completed checkpoint ({@code chk-N} with a {@code _metadata} file) under {@code
   * jobDir}.
   */
  static Optional<Path> latestCheckpoint(Path jobDir) throws IOException {
    if (!Files.isDirectory(jobDir)) {
      return Optional.empty();
    }
    try (Stream<Path> dirs = Files.list(jobDir)) {
      return dirs.filter(p -> p.getFileName().toString().matches("chk-\\d+"))
          .filter(p -> Files.exists(p.resolve("_metadata")))
          .max(
              Comparator.comparingLong(
                  p -> Long.parseLong(p.getFileName().toString().substring(4))));
    }
  }

  public JobStatus status(JobID jobId) {
    try {
      return cluster.getJobStatus(jobId).get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      return JobStatus.FAILED;
    }
  }

  /** Waits until the job runs (all tasks deployed) or the deadline passes. */
  public void awaitRunning(JobID jobId, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      JobStatus status = status(jobId);
      if (status == JobStatus.RUNNING) {
        return;
      }
      if (status.isGloballyTerminalState()) {
        throw new IllegalStateException("Job " + jobId + " ended as " + status + " while starting");
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException(
        "Job " + jobId + " not running within " + timeout + " (status " + status(jobId) + ")");
  }

  /**
   * Takes a checkpoint (so a restart replays nothing it need not), then cancels the job; the
   * checkpoint is retained.
   */
  public void checkpointAndCancel(JobID jobId, Duration timeout) {
    try {
      if (status(jobId) == JobStatus.RUNNING) {
        String path =
            cluster.triggerCheckpoint(jobId).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        LOG.info("Final checkpoint of {} at {}", jobId, path);
      }
    } catch (Exception e) {
      LOG.warn(
          "No final checkpoint for {} ({}); the next start resumes from the previous one",
          jobId,
          e.getMessage());
    }
    try {
      cluster.cancelJob(jobId).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      LOG.warn("Cancelling {} failed: {}", jobId, e.getMessage());
    }
  }

  /** The REST endpoint, e.g. {@code http://127.0.0.1:8081}. */
  public String restAddress() {
    try {
      return cluster.getRestAddress().get(5, TimeUnit.SECONDS).toString();
    } catch (Exception e) {
      return "unavailable (" + e.getMessage() + ")";
    }
  }

  public MiniCluster cluster() {
    return cluster;
  }

  @Override
  public void close() throws Exception {
    cluster.closeAsync().get(30, TimeUnit.SECONDS);
    LOG.info("Flink MiniCluster stopped");
  }
}
