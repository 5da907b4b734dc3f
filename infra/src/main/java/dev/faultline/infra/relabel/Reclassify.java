package dev.faultline.infra.relabel;

import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.JobConfig;
import dev.faultline.schemas.taxonomy.Dimension;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.SessionConfig;

/**
 * Relabelling history with the classifier the stack runs now: a bounded replay of the system of
 * record ({@code faultline.deliveries}) through the issue pipeline itself ({@link
 * IssuePipelineJob#build(StreamExecutionEnvironment, JobConfig, boolean)} with {@code bounded}),
 * under a consumer group of its own, into the same graph sink. The sink's guards give the
 * guarantees: the newest state of an issue wins, a replayed older state changes nothing, the same
 * state is relabelled, and running it again writes the same values. Progress comes from the replay
 * group's committed offsets (committed at each checkpoint) against the topic's end offsets when it
 * started; a run killed midway and started again with the same group continues from its last
 * checkpoint. Snapshots of the graph's labels before and after give the {@link RelabelReport}.
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
  }

  /** How far a replay is: deliveries done of the total, rate and time left. */
  public record Progress(long done, long total, double perSecond, double secondsLeft) {}

  /** The labels of the issues in scope, as the graph holds them now (by URL). */
  public static List<RelabelReport.Labels> snapshot(JobConfig config, Scope scope) {
    List<RelabelReport.Labels> out = new ArrayList<>();
    for (Map<String, Object> props : issueProperties(config, scope)) {
      Map<String, String> codes = new HashMap<>();
      Object version = props.get("classifierVersion");
      if (version != null) {
        codes.put(CLASSIFIER_VERSION, version.toString());
      }
      // Neo4j stores no null: an absent property is "null" (distributed-specific: cannot tell; any
      // other dimension: no label).
      for (Dimension d : Dimension.values()) {
        Object v = props.get(d.property());
        codes.put(d.key(), v == null ? "null" : v.toString());
      }
      out.add(
          new RelabelReport.Labels(
              (String) props.get("url"), (String) props.get("framework"), codes));
    }
    return out;
  }

  /**
   * The labels the issues in scope had just before {@code asOf}, rebuilt from the graph's label
   * history alone ({@link Dimension#labelledAtProperty()}, {@link Dimension#previousProperty()}): a
   * label given at or after {@code asOf} stands for the one it replaced, an earlier one for itself.
   * Covers the labelled dimensions ({@link Dimension#LABELLED}) and the classifier version; an
   * issue none of whose labels existed before {@code asOf} is left out. The graph keeps one
   * previous label per dimension, so the rebuild equals the snapshot taken at {@code asOf} unless a
   * label changed twice since then (a live delivery changed the issue during the run, say).
   */
  public static List<RelabelReport.Labels> snapshotAsOf(
      JobConfig config, Scope scope, Instant asOf) {
    java.time.ZonedDateTime t = asOf.atZone(java.time.ZoneOffset.UTC);
    List<RelabelReport.Labels> out = new ArrayList<>();
    for (Map<String, Object> props : issueProperties(config, scope)) {
      Map<String, String> codes = new HashMap<>();
      String version = null;
      for (Dimension d : Dimension.LABELLED) {
        Object at = props.get(d.labelledAtProperty());
        boolean givenSince = at instanceof java.time.ZonedDateTime z && !z.isBefore(t);
        Object code = givenSince ? props.get(d.previousProperty()) : props.get(d.property());
        Object v =
            givenSince ? props.get(d.previousVersionProperty()) : props.get(d.versionProperty());
        if (givenSince && v == null) {
          continue; // no label before: given for the first time since asOf
        }
        codes.put(d.key(), code == null ? "null" : code.toString());
        if (version == null && v != null && !"human".equals(v)) {
          version = v.toString();
        }
      }
      if (codes.isEmpty()) {
        continue;
      }
      if (version != null) {
        codes.put(CLASSIFIER_VERSION, version);
      }
      out.add(
          new RelabelReport.Labels(
              (String) props.get("url"), (String) props.get("framework"), codes));
    }
    return out;
  }

  /**
   * The labels of the issues in scope as the graph holds them now, restricted to what {@link
   * #snapshotAsOf} can rebuild (the labelled dimensions and the classifier version).
   */
  public static List<RelabelReport.Labels> labelledNow(JobConfig config, Scope scope) {
    List<RelabelReport.Labels> out = new ArrayList<>();
    for (RelabelReport.Labels l : snapshot(config, scope)) {
      Map<String, String> codes = new HashMap<>();
      l.codes()
          .forEach(
              (k, v) -> {
                if (k.equals(CLASSIFIER_VERSION)
                    || Dimension.ofKey(k).map(Dimension::labelled).orElse(false)) {
                  codes.put(k, v);
                }
              });
      out.add(new RelabelReport.Labels(l.id(), l.framework(), codes));
    }
    return out;
  }

  private static List<Map<String, Object>> issueProperties(JobConfig config, Scope scope) {
    List<Map<String, Object>> out = new ArrayList<>();
    try (Driver driver =
            GraphDatabase.driver(
                config.graph().uri(),
                AuthTokens.basic(config.graph().user(), config.graph().password()));
        var session = driver.session(SessionConfig.forDatabase(config.graph().database()))) {
      Map<String, Object> p = new HashMap<>();
      p.put("framework", scope.framework());
      p.put("since", scope.since() == null ? null : scope.since().toString());
      p.put("until", scope.until() == null ? null : scope.until().toString());
      session
          .run(
              "MATCH (i:Issue) WHERE i.url IS NOT NULL"
                  + " AND ($framework IS NULL OR i.framework = $framework)"
                  + " AND ($since IS NULL OR i.createdAt >= datetime($since))"
                  + " AND ($until IS NULL OR i.createdAt < datetime($until))"
                  + " RETURN properties(i) AS p ORDER BY i.url",
              p)
          .forEachRemaining(r -> out.add(r.get("p").asMap()));
    }
    return out;
  }

  /** Deliveries the replay will read: the topic's end offsets minus the group's committed ones. */
  public static long remaining(JobConfig config) throws Exception {
    try (Admin admin = Admin.create(admin(config))) {
      Map<TopicPartition, Long> end = endOffsets(admin, config.deliveriesTopic());
      Map<TopicPartition, Long> done = committed(admin, config.groupId());
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
   * reporting progress every {@code everyMillis}.
   *
   * @param started called with the job once it runs (to cancel it, in tests)
   */
  public static void replay(
      JobConfig config, long everyMillis, Consumer<Progress> progress, Consumer<JobClient> started)
      throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    IssuePipelineJob.build(env, config, true);
    try (Admin admin = Admin.create(admin(config))) {
      Map<TopicPartition, Long> end = endOffsets(admin, config.deliveriesTopic());
      Map<TopicPartition, Long> before = committed(admin, config.groupId());
      long total = 0;
      for (var e : end.entrySet()) {
        total += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
      }
      JobClient job = env.executeAsync("faultline reclassify (" + config.groupId() + ")");
      started.accept(job);
      long t0 = System.nanoTime();
      var result = job.getJobExecutionResult();
      while (true) {
        try {
          result.get(everyMillis, TimeUnit.MILLISECONDS);
          break;
        } catch (java.util.concurrent.TimeoutException stillRunning) {
          Map<TopicPartition, Long> now = committed(admin, config.groupId());
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
      }
      progress.accept(
          new Progress(total, total, total / Math.max((System.nanoTime() - t0) / 1e9, 1e-3), 0));
    }
  }

  private static Properties admin(JobConfig config) {
    Properties p = new Properties();
    p.putAll(config.kafkaClientProperties());
    return p;
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
