package dev.faultline.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.testing.KafkaClients;
import dev.faultline.embedded.testing.Poll;
import dev.faultline.jobs.PipelineStack;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.jobs.common.SinkOptions;
import dev.faultline.schemas.Alert;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.KafkaSettings;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.stats.domain.IssueContributions;
import dev.faultline.stats.records.CategoryStat;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.sink.AlertSerializer;
import dev.faultline.stats.sink.CategoryStatSerializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;

/**
 * The category-stats job on a Flink MiniCluster (parallelism 2, loopback), a real KRaft broker and
 * a real Neo4j. Each test uses its own framework name, so tests sharing the topics and the graph do
 * not see each other's numbers.
 */
class CategoryStatsJobIT {
  private static final String PASSWORD = "stats-it-password";
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  @TempDir static Path dir;
  private static PipelineStack stack;
  private static Driver driver;

  @BeforeAll
  static void startServers() throws Exception {
    stack =
        PipelineStack.start(
            dir, PASSWORD, Topic.ISSUES_CLASSIFIED, Topic.STATS, Topic.ALERTS, Topic.DEAD_LETTER);
    driver = stack.driver();
  }

  @AfterAll
  static void stopServers() throws Exception {
    stack.close();
  }

  /**
   * Small lateness and out-of-orderness, so shuffled input drives most deltas through the
   * correction path.
   */
  private static StatsConfig config(String name) {
    return StatsConfig.defaults(
            new JobIo(
                KafkaSettings.of(stack.bootstrapServers()),
                "stats-it-" + name,
                stack.graph(),
                new SinkOptions(500, Duration.ofMillis(100), Duration.ofSeconds(1)),
                JobIo.Checkpoints.every(Duration.ofMillis(300)),
                2))
        .withBounded(true)
        .withEventTime(
            new StatsConfig.EventTime(
                Duration.ofDays(1), Duration.ofHours(1), Duration.ofSeconds(1)))
        // the fixtures' records carry no confidences: count every label (the bar is
        // ClassifiedEventTest's)
        .withConfidence(dev.faultline.graph.ConfidencePolicy.all());
  }

  private static Configuration loopback() {
    Configuration conf = new Configuration();
    conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.BIND_PORT, "0");
    conf.set(JobManagerOptions.ADDRESS, "127.0.0.1");
    conf.set(JobManagerOptions.BIND_HOST, "127.0.0.1");
    conf.set(TaskManagerOptions.HOST, "127.0.0.1");
    conf.set(TaskManagerOptions.BIND_HOST, "127.0.0.1");
    // Every type between operators is a Flink POJO or basic type: fail rather than fall back to
    // Kryo.
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    return conf;
  }

  @Test
  void timeOrderedAndShuffledInputGiveTheSameFinalCounts() throws Exception {
    String fw = "fw-order-" + UUID.randomUUID().toString().substring(0, 6);
    List<ClassifiedEvent> ordered = Fixtures.history(fw, 150, 90, 3);
    List<ClassifiedEvent> shuffled = new ArrayList<>(ordered);
    Collections.shuffle(shuffled, new Random(5));
    StatsConfig config = config("order");

    Map<String, Long> live = finalCounts(runCollecting(ordered, config));
    List<CategoryStat> backfillOut = runCollecting(shuffled, config);
    Map<String, Long> backfill = finalCounts(backfillOut);

    assertEquals(withoutZeros(live), withoutZeros(backfill));
    List<IssueContributions.Entry> entries = Fixtures.finalEntries(ordered);
    Map<String, CategoryStat> latest = Fixtures.latest(backfillOut);
    assertTrue(backfillOut.stream().allMatch(s -> s.count >= 0), "no count is ever negative");
    for (CategoryStat s : latest.values()) {
      if (s.windowStart != null) {
        assertEquals(Fixtures.expectedCount(entries, s), s.count, s.id);
      }
    }
    assertCoversEveryEntry(entries, latest);
  }

  @Test
  void writesExactCountsAndOneAlertPerEpisodeToKafkaAndTheGraph() throws Exception {
    String fw = "fw-kafka-" + UUID.randomUUID().toString().substring(0, 6);
    List<ClassifiedEvent> events = new ArrayList<>(Fixtures.history(fw, 200, 120, 17));
    Collections.shuffle(events, new Random(1)); // a backfill: out of order
    produce(events);

    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(2, loopback());
    CategoryStatsJob.build(env, config("kafka-" + fw));
    JobClient job = env.executeAsync(CategoryStatsJob.NAME);
    job.getJobExecutionResult().get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

    Map<String, dev.faultline.schemas.CategoryStat> stats = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : readCommitted(Topic.STATS.topicName())) {
      dev.faultline.schemas.CategoryStat s =
          AvroCodec.of(new dev.faultline.schemas.CategoryStat()).decode(r.value());
      if (s.getFramework().equals(fw)) {
        stats.put(s.getId(), s);
      }
    }
    List<IssueContributions.Entry> entries = Fixtures.finalEntries(events);
    assertFalse(stats.isEmpty());
    for (dev.faultline.schemas.CategoryStat s : stats.values()) {
      if (s.getWindowStart() != null) {
        CategoryStat probe =
            CategoryStat.rolling(
                fw,
                Dimension.valueOf(s.getDimension().name()),
                s.getCategory(),
                s.getWindow(),
                s.getWindowStart().toEpochMilli(),
                s.getWindowEnd().toEpochMilli(),
                0);
        assertEquals(Fixtures.expectedCount(entries, probe), s.getCount(), s.getId());
        // beside the count, the expected count of bug reports and its variance
        double[] expected = Fixtures.expectedSum(events, probe);
        assertEquals(expected[0], s.getExpected(), 1e-3, s.getId());
        assertEquals(expected[1], s.getVariance(), 1e-3, s.getId());
      }
    }
    assertTrue(
        stats.values().stream()
            .anyMatch(
                s -> s.getWindowStart() != null && s.getCount() == 0 && s.getExpected() > 0.2),
        "a code no issue is labelled with still has its expected count");
    // Release counts: issues per reported release, once each.
    long releaseIssues =
        stats.values().stream()
            .filter(s -> s.getRelease() != null && s.getDimension().name().equals("STAGE"))
            .mapToLong(dev.faultline.schemas.CategoryStat::getCount)
            .sum();
    assertEquals(expectedReleaseIssues(events), releaseIssues);

    List<Alert> alerts = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : readCommitted(Topic.ALERTS.topicName())) {
      Alert a = AvroCodec.of(new Alert()).decode(r.value());
      if (a.getFramework().equals(fw)) {
        alerts.add(a);
      }
    }
    // The shuffled backfill may revise an alert (re-emitted under its id: corrected, or withdrawn
    // when later records
    // take it back), but never repeats a record as it was.
    Set<String> ids = new HashSet<>();
    Map<String, Alert> inForce = new HashMap<>();
    assertNoRecordRepeated(alerts);
    for (Alert a : alerts) {
      ids.add(a.getId());
      inForce.put(a.getId(), a);
    }
    inForce.values().removeIf(Alert::getWithdrawn);
    // one alert per event: the HANG surge is a member of a grouped alert (its first, or listed)
    Alert hangSurge =
        inForce.values().stream()
            .filter(
                a ->
                    a.getMoved().stream()
                        .anyMatch(
                            m ->
                                m.getKind().name().equals("SURGE")
                                    && m.getCategory().equals("HANG")
                                    && m.getCount() >= 5))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no HANG surge among " + inForce.values()));
    assertFalse(hangSurge.getExampleIssueIds().isEmpty());
    assertTrue(hangSurge.getScore() > 3, hangSurge.toString());

    // The graph holds the same numbers, and the alerts with their examples.
    List<Record> nodes =
        driver
            .executableQuery(
                "MATCH (c:CategoryCount {framework: $fw})"
                    + " RETURN c.id AS id, c.count AS count, c.expected AS expected")
            .withParameters(Map.of("fw", fw))
            .execute()
            .records();
    assertEquals(stats.size(), nodes.size());
    for (Record n : nodes) {
      assertEquals(
          stats.get(n.get("id").asString()).getCount(),
          n.get("count").asLong(),
          n.get("id").asString());
      assertEquals(
          stats.get(n.get("id").asString()).getExpected(),
          n.get("expected").isNull() ? null : n.get("expected").asDouble(),
          n.get("id").asString());
    }
    Record alertNode =
        driver
            .executableQuery(
                "MATCH (a:Alert {id: $id})-[:EXAMPLE]->(i:Issue) RETURN a.explanation AS why,"
                    + " size(a.moved) AS moved, count(i) AS examples")
            .withParameters(Map.of("id", hangSurge.getId()))
            .execute()
            .records()
            .get(0);
    assertEquals(hangSurge.getExampleIssueIds().size(), alertNode.get("examples").asLong());
    assertEquals(hangSurge.getExplanation(), alertNode.get("why").asString());
    assertEquals(hangSurge.getMoved().size(), alertNode.get("moved").asLong());
    assertEquals(
        ids.size(),
        driver
            .executableQuery("MATCH (a:Alert {framework: $fw}) RETURN count(a) AS n")
            .withParameters(Map.of("fw", fw))
            .execute()
            .records()
            .get(0)
            .get("n")
            .asLong());
  }

  @Test
  void aTaskFailureMidStreamLeavesTheCountsExact() throws Exception {
    String fw = "fw-failover-" + UUID.randomUUID().toString().substring(0, 6);
    List<ClassifiedEvent> events = Fixtures.history(fw, 150, 90, 23);
    ArrayList<byte[]> encoded = new ArrayList<>();
    AvroCodec<ClassifiedIssue> codec = AvroCodec.classifiedIssues();
    for (ClassifiedEvent e : events) {
      encoded.add(codec.encode(Fixtures.toAvro(e)));
    }
    StatsConfig config = config("failover-" + fw);
    FailOnceAfterCheckpoint.reset(events.size() / 4);

    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(2, loopback());
    env.enableCheckpointing(200, CheckpointingMode.EXACTLY_ONCE);
    // A throttled, checkpointed source (~8 s of input), so checkpoints complete mid-stream before
    // the failure even on
    // a loaded machine.
    DataGeneratorSource<ClassifiedEvent> source =
        new DataGeneratorSource<>(
            new Replay(encoded),
            encoded.size(),
            RateLimiterStrategy.perSecond(encoded.size() / 8.0),
            TypeInformation.of(ClassifiedEvent.class));
    DataStream<ClassifiedEvent> input =
        env.fromSource(source, CategoryStatsJob.watermarks(config), "replay")
            .map(new FailOnceAfterCheckpoint())
            .returns(ClassifiedEvent.class);
    CategoryStatsJob.Outputs out = CategoryStatsJob.apply(input, config);
    out.stats()
        .sinkTo(
            CategoryStatsJob.kafkaSink(
                config, "stats", new CategoryStatSerializer(Topic.STATS.topicName())));
    out.alerts()
        .sinkTo(
            CategoryStatsJob.kafkaSink(
                config, "alerts", new AlertSerializer(Topic.ALERTS.topicName())));
    env.executeAsync("failover")
        .getJobExecutionResult()
        .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

    assertTrue(FailOnceAfterCheckpoint.FAILED.get(), "the injected failure happened");
    Map<String, Long> counts = new HashMap<>();
    List<Alert> alertRecords = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : readCommitted(Topic.STATS.topicName())) {
      dev.faultline.schemas.CategoryStat s =
          AvroCodec.of(new dev.faultline.schemas.CategoryStat()).decode(r.value());
      if (s.getFramework().equals(fw) && s.getWindowStart() != null) {
        CategoryStat probe =
            CategoryStat.rolling(
                fw,
                Dimension.valueOf(s.getDimension().name()),
                s.getCategory(),
                s.getWindow(),
                s.getWindowStart().toEpochMilli(),
                s.getWindowEnd().toEpochMilli(),
                s.getCount());
        counts.put(probe.id, s.getCount());
        assertTrue(s.getCount() >= 0, "never negative, not even for a moment: " + s);
      }
    }
    for (ConsumerRecord<byte[], byte[]> r : readCommitted(Topic.ALERTS.topicName())) {
      Alert a = AvroCodec.of(new Alert()).decode(r.value());
      if (a.getFramework().equals(fw)) {
        alertRecords.add(a);
      }
    }
    List<IssueContributions.Entry> entries = Fixtures.finalEntries(events);
    assertFalse(counts.isEmpty());
    for (Map.Entry<String, Long> c : counts.entrySet()) {
      String[] p = c.getKey().split("/");
      // id: framework/dimensionKey/category/window/date
      CategoryStat probe = probeOf(fw, p);
      assertEquals(Fixtures.expectedCount(entries, probe), c.getValue().longValue(), c.getKey());
    }
    assertNoRecordRepeated(alertRecords);
  }

  private static CategoryStat probeOf(String fw, String[] idParts) {
    Dimension dimension = Dimension.ofKey(idParts[1]).orElseThrow();
    long windowMillis = Duration.parse(idParts[3]).toMillis();
    long start =
        java.time.LocalDate.parse(idParts[4])
            .atStartOfDay(java.time.ZoneOffset.UTC)
            .toInstant()
            .toEpochMilli();
    return CategoryStat.rolling(
        fw, dimension, idParts[2], idParts[3], start, start + windowMillis, 0);
  }

  private static long expectedReleaseIssues(List<ClassifiedEvent> events) {
    Map<String, ClassifiedEvent> newest = new HashMap<>();
    for (ClassifiedEvent e : events) {
      newest.merge(e.id, e, (a, b) -> b.updatedAt > a.updatedAt ? b : a);
    }
    return newest.values().stream().filter(e -> e.frameworkVersion != null && !e.deleted()).count();
  }

  private static void assertCoversEveryEntry(
      List<IssueContributions.Entry> entries, Map<String, CategoryStat> latest) {
    long day = Fixtures.DAY;
    for (IssueContributions.Entry e : entries) {
      long start = Math.floorDiv(e.time(), day) * day - 6 * day;
      String id =
          e.framework()
              + "/"
              + e.dimension().key()
              + "/"
              + e.category()
              + "/P7D/"
              + java.time.Instant.ofEpochMilli(start)
                  .atOffset(java.time.ZoneOffset.UTC)
                  .toLocalDate();
      assertTrue(latest.containsKey(id), "missing window " + id);
    }
  }

  private static List<CategoryStat> runCollecting(List<ClassifiedEvent> events, StatsConfig config)
      throws Exception {
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(2, loopback());
    DataStream<ClassifiedEvent> input =
        env.fromData(
                events.stream().map(Fixtures::copy).toList(),
                TypeInformation.of(ClassifiedEvent.class))
            .assignTimestampsAndWatermarks(CategoryStatsJob.watermarks(config));
    List<CategoryStat> out = new ArrayList<>();
    try (var it = CategoryStatsJob.apply(input, config).stats().executeAndCollect()) {
      it.forEachRemaining(out::add);
    }
    return out;
  }

  private static Map<String, Long> finalCounts(List<CategoryStat> stats) {
    Map<String, Long> m = new HashMap<>();
    Fixtures.latest(stats).forEach((id, s) -> m.put(id, s.count));
    return m;
  }

  @Test
  void undecodableRecordsGoToTheDeadLetterTopicWithTheReasonAndTheCountsStayExact()
      throws Exception {
    String fw = "fw-poison-" + UUID.randomUUID().toString().substring(0, 6);
    List<ClassifiedEvent> events = new ArrayList<>(Fixtures.history(fw, 60, 40, 23));
    List<byte[]> poison =
        List.of(
            ("not avro " + fw).getBytes(StandardCharsets.UTF_8),
            new byte[] {(byte) 0xff, (byte) 0xfe, 1, 2, 3},
            new byte[0]);
    AvroCodec<ClassifiedIssue> codec = AvroCodec.classifiedIssues();
    try (KafkaProducer<byte[], byte[]> producer =
        KafkaClients.producer(
            stack.bootstrapServers(), new ByteArraySerializer(), new ByteArraySerializer())) {
      for (int i = 0; i < events.size(); i++) {
        ClassifiedEvent e = events.get(i);
        producer.send(
            new ProducerRecord<>(
                Topic.ISSUES_CLASSIFIED.topicName(),
                e.id.getBytes(StandardCharsets.UTF_8),
                codec.encode(Fixtures.toAvro(e))));
        if (i % 25 == 0
            && i / 25 < poison.size()) { // poison between valid records, not only at the end
          producer.send(
              new ProducerRecord<>(
                  Topic.ISSUES_CLASSIFIED.topicName(),
                  (fw + "-poison-" + i).getBytes(StandardCharsets.UTF_8),
                  poison.get(i / 25)));
        }
      }
      producer.flush();
    }

    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(2, loopback());
    CategoryStatsJob.build(env, config("poison-" + fw));
    env.executeAsync(CategoryStatsJob.NAME)
        .getJobExecutionResult()
        .get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

    // Every poison record is in the dead-letter topic, with stage, reason, key and the original
    // bytes.
    List<dev.faultline.schemas.DeadLetter> mine = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : readCommitted(Topic.DEAD_LETTER.topicName())) {
      dev.faultline.schemas.DeadLetter d = AvroCodec.deadLetters().decode(r.value());
      if (d.getKey() != null && d.getKey().startsWith(fw + "-poison-")) {
        mine.add(d);
      }
    }
    assertEquals(poison.size(), mine.size(), "one dead letter per poison record: " + mine);
    for (dev.faultline.schemas.DeadLetter d : mine) {
      assertEquals(dev.faultline.stats.source.ClassifiedIssueDeserializer.STAGE, d.getStage());
      assertTrue(
          d.getReason()
              .startsWith("undecodable ClassifiedIssue at " + Topic.ISSUES_CLASSIFIED.topicName()),
          d.getReason());
      int i = Integer.parseInt(d.getKey().substring((fw + "-poison-").length()));
      byte[] payload = new byte[d.getPayload().remaining()];
      d.getPayload().get(payload);
      assertTrue(
          java.util.Arrays.equals(poison.get(i / 25), payload),
          "payload kept as sent: " + d.getKey());
    }
    // ... and the valid records around them are counted exactly.
    List<IssueContributions.Entry> entries = Fixtures.finalEntries(events);
    Map<String, dev.faultline.schemas.CategoryStat> stats = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : readCommitted(Topic.STATS.topicName())) {
      dev.faultline.schemas.CategoryStat s =
          AvroCodec.of(new dev.faultline.schemas.CategoryStat()).decode(r.value());
      if (s.getFramework().equals(fw)) {
        stats.put(s.getId(), s); // per partition in offset order: the last one is the newest count
      }
    }
    int compared = 0;
    for (dev.faultline.schemas.CategoryStat s : stats.values()) {
      if (s.getWindowStart() != null) {
        CategoryStat probe =
            CategoryStat.rolling(
                fw,
                Dimension.valueOf(s.getDimension().name()),
                s.getCategory(),
                s.getWindow(),
                s.getWindowStart().toEpochMilli(),
                s.getWindowEnd().toEpochMilli(),
                0);
        assertEquals(Fixtures.expectedCount(entries, probe), s.getCount(), s.getId());
        compared++;
      }
    }
    assertTrue(compared > 0, "the job produced no statistics for " + fw);
  }

  /**
   * Revisions of an alert (corrected, withdrawn, raised again) are records of one id that differ; a
   * record sent again as it was (what a replay without exactly-once would do) follows its twin
   * directly in the id's order.
   */
  private static void assertNoRecordRepeated(List<Alert> alerts) {
    Map<String, String> last = new HashMap<>();
    for (Alert a : alerts) {
      String previous = last.put(a.getId(), a.toString());
      assertFalse(a.toString().equals(previous), "alert record written twice in a row: " + a);
    }
  }

  private static Map<String, Long> withoutZeros(Map<String, Long> m) {
    Map<String, Long> out = new HashMap<>(m);
    out.values().removeIf(v -> v == 0);
    return out;
  }

  private static void produce(List<ClassifiedEvent> events) throws Exception {
    AvroCodec<ClassifiedIssue> codec = AvroCodec.classifiedIssues();
    try (KafkaProducer<byte[], byte[]> producer =
        KafkaClients.producer(
            stack.bootstrapServers(), new ByteArraySerializer(), new ByteArraySerializer())) {
      for (ClassifiedEvent e : events) {
        producer.send(
            new ProducerRecord<>(
                Topic.ISSUES_CLASSIFIED.topicName(),
                e.id.getBytes(StandardCharsets.UTF_8),
                codec.encode(Fixtures.toAvro(e))));
      }
      producer.flush();
    }
  }

  /**
   * Everything committed to {@code topic} so far (read_committed, up to the last stable offsets).
   */
  private static List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        KafkaClients.consumer(
            stack.bootstrapServers(),
            Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      Poll.until(
          DEADLINE,
          () -> "reading " + topic + " up to " + end,
          () -> {
            if (partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p))) {
              return true;
            }
            consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            return false;
          });
    }
    return out;
  }

  /** Replays pre-encoded records by index, decoding them as the Kafka source would. */
  static final class Replay implements GeneratorFunction<Long, ClassifiedEvent> {
    private final ArrayList<byte[]> records;
    private transient AvroCodec<ClassifiedIssue> codec;

    Replay(ArrayList<byte[]> records) {
      this.records = records;
    }

    @Override
    public ClassifiedEvent map(Long index) {
      if (codec == null) {
        codec = AvroCodec.classifiedIssues();
      }
      try {
        return ClassifiedEvent.fromAvro(codec.decode(records.get(index.intValue())));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Throws once, in one subtask, after a checkpoint has completed and some records have passed. */
  static final class FailOnceAfterCheckpoint
      extends RichMapFunction<ClassifiedEvent, ClassifiedEvent> implements CheckpointListener {
    static final AtomicBoolean FAILED = new AtomicBoolean();
    static volatile boolean checkpointed;
    static volatile int threshold;
    private transient int seen;

    static void reset(int after) {
      FAILED.set(false);
      checkpointed = false;
      threshold = after;
    }

    @Override
    public void open(OpenContext openContext) {
      seen = 0;
    }

    @Override
    public ClassifiedEvent map(ClassifiedEvent e) {
      seen++;
      if (checkpointed && seen >= threshold && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure after " + seen + " records");
      }
      return e;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      checkpointed = true;
    }
  }
}
