package dev.faultline.stats;

import dev.faultline.graph.stats.AlertWriter;
import dev.faultline.graph.stats.CategoryCountWriter;
import dev.faultline.jobs.common.DeadLetterSerializer;
import dev.faultline.jobs.common.JobIo;
import dev.faultline.schemas.Topic;
import dev.faultline.stats.functions.DailyCountAggregate;
import dev.faultline.stats.functions.DailyCountWindow;
import dev.faultline.stats.functions.DeltaEventTime;
import dev.faultline.stats.functions.EmergenceDetector;
import dev.faultline.stats.functions.IssueContributionFunction;
import dev.faultline.stats.functions.ReleaseCounts;
import dev.faultline.stats.functions.RollingCounts;
import dev.faultline.stats.functions.SplitUndecodable;
import dev.faultline.stats.records.AlertCount;
import dev.faultline.stats.records.CategoryStat;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.ClassifiedRecord;
import dev.faultline.stats.records.ContributionDelta;
import dev.faultline.stats.records.DailyCount;
import dev.faultline.stats.records.ReleaseDelta;
import dev.faultline.stats.records.StatAlert;
import dev.faultline.stats.records.StatKey;
import dev.faultline.stats.sink.AlertSerializer;
import dev.faultline.stats.sink.CategoryStatSerializer;
import dev.faultline.stats.source.ClassifiedIssueDeserializer;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.util.OutputTag;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * The category-stats job: rolling and per-release counts of classified issues per framework ×
 * dimension × category, and emerging-category alerts. {@link #main} runs it on a cluster, {@link
 * #build} wires Kafka and Neo4j, {@link #apply} is the pipeline as a function of streams.
 *
 * <pre>
 * classified ─keyBy issue─► IssueContributionFunction ─► DeltaEventTime ─keyBy key─► daily tumbling window
 *                            │ release deltas ─keyBy─► ReleaseCounts ─► stats     (allowed lateness)
 *                            │                                                      │ result   │ too late
 *                            │                                                      ▼          ▼
 *                            │                                   RollingCounts (windows, correction) ─► stats
 *                            │ deltas + category×stage + release reports
 *                            └─keyBy framework─► EmergenceDetector (one family per framework and day) ─► alerts
 * </pre>
 */
public final class CategoryStatsJob {
  public static final String NAME = "faultline-category-stats";

  /** Deltas the daily window no longer accepts: the correction path. */
  public static final OutputTag<ContributionDelta> TOO_LATE =
      new OutputTag<>("too-late-deltas", TypeInformation.of(ContributionDelta.class));

  /** Streams the job produces. */
  public record Outputs(DataStream<CategoryStat> stats, DataStream<StatAlert> alerts) {}

  private CategoryStatsJob() {}

  public static void main(String[] args) throws Exception {
    StatsConfig config = StatsConfig.fromArgs(args, System.getenv());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    build(env, config);
    env.execute(NAME);
  }

  /** Adds the job's source, pipeline and sinks to {@code env}, with exactly-once checkpointing. */
  public static void build(StreamExecutionEnvironment env, StatsConfig config) {
    JobIo io = config.io();
    io.configure(env);
    KafkaSourceBuilder<ClassifiedRecord> source =
        KafkaSource.<ClassifiedRecord>builder()
            .setBootstrapServers(io.kafka().bootstrap())
            .setProperties(io.kafka().clientProperties())
            // Only what the issue pipeline committed: its transactions may abort.
            .setProperty("isolation.level", "read_committed")
            .setTopics(Topic.ISSUES_CLASSIFIED.topicName())
            .setGroupId(io.groupId())
            .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
            .setDeserializer(new ClassifiedIssueDeserializer(config.confidence()));
    if (config.bounded()) {
      source.setBounded(OffsetsInitializer.latest());
    }
    // Watermarks per Kafka partition (split), so one slow partition holds the watermark and an idle
    // one does not.
    SingleOutputStreamOperator<ClassifiedEvent> events =
        env.fromSource(source.build(), sourceWatermarks(config), "classified issues")
            .uid("classified-source")
            .process(new SplitUndecodable())
            .uid("split-undecodable")
            .name("undecodable records to dead letters");
    events
        .getSideOutput(SplitUndecodable.UNDECODABLE)
        .sinkTo(
            kafkaSink(
                config, "dead-letters", new DeadLetterSerializer(Topic.DEAD_LETTER.topicName())))
        .uid("stats-dead-letter-sink")
        .name("dead letters");
    Outputs out = apply(events, config);
    out.stats()
        .sinkTo(kafkaSink(config, "stats", new CategoryStatSerializer(Topic.STATS.topicName())))
        .uid("stats-kafka-sink")
        .name("faultline.stats");
    out.stats()
        .map(CategoryStat::toRow)
        .uid("stats-graph-rows")
        .name("CategoryCount rows")
        .sinkTo(io.graphSink("category-stats/neo4j-counts", CategoryCountWriter::new))
        .uid("stats-graph-sink")
        .name("graph CategoryCount");
    out.alerts()
        .sinkTo(kafkaSink(config, "alerts", new AlertSerializer(Topic.ALERTS.topicName())))
        .uid("alerts-kafka-sink")
        .name("faultline.alerts");
    out.alerts()
        .map(StatAlert::toRow)
        .uid("alerts-graph-rows")
        .name("Alert rows")
        .sinkTo(io.graphSink("category-stats/neo4j-alerts", AlertWriter::new))
        .uid("alerts-graph-sink")
        .name("graph Alert");
  }

  /**
   * Event time = {@code updatedAt}, bounded out-of-orderness, idle partitions released. Use it on
   * any source feeding {@link #apply}.
   */
  public static WatermarkStrategy<ClassifiedEvent> watermarks(StatsConfig config) {
    return watermarks(config, (e, previous) -> e.updatedAt);
  }

  /**
   * {@link #watermarks} for the Kafka source's records; a record that did not decode has no event
   * time and must not move the watermark, so it gets the smallest timestamp there is.
   */
  static WatermarkStrategy<ClassifiedRecord> sourceWatermarks(StatsConfig config) {
    return watermarks(
        config, (r, previous) -> r.event != null ? r.event.updatedAt : Long.MIN_VALUE);
  }

  private static <T> WatermarkStrategy<T> watermarks(
      StatsConfig config, SerializableTimestampAssigner<T> eventTime) {
    return WatermarkStrategy.<T>forBoundedOutOfOrderness(config.eventTime().outOfOrderness())
        .withTimestampAssigner(eventTime)
        .withIdleness(config.eventTime().idleness());
  }

  /** An exactly-once (transactional) Kafka sink; {@code name} tells its transactional ids apart. */
  public static <T> KafkaSink<T> kafkaSink(
      StatsConfig config, String name, KafkaRecordSerializationSchema<T> serializer) {
    Properties producer = config.io().kafka().clientProperties();
    // Below the broker's transaction.max.timeout.ms (15 min by default); Flink's default (1 h) is
    // refused.
    producer.putIfAbsent("transaction.timeout.ms", "600000");
    return KafkaSink.<T>builder()
        .setKafkaProducerConfig(producer)
        .setRecordSerializer(serializer)
        .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
        .setTransactionalIdPrefix(config.transactionalIdPrefix() + "-" + name)
        .build();
  }

  /**
   * The pipeline: classified issues (with timestamps and watermarks, see {@link #watermarks}) in,
   * counts and alerts out.
   */
  public static Outputs apply(DataStream<ClassifiedEvent> events, StatsConfig config) {
    SingleOutputStreamOperator<ContributionDelta> deltas =
        events
            // All records of an issue meet in one task: its history decides what it contributes.
            .keyBy(e -> e.id)
            .process(new IssueContributionFunction(config.retention().issueState()))
            .uid("issue-contributions")
            .name("issue contributions");
    SingleOutputStreamOperator<DailyCount> daily =
        deltas
            .transform(
                "event time of deltas",
                TypeInformation.of(ContributionDelta.class),
                new DeltaEventTime())
            .uid("delta-event-time")
            .keyBy(ContributionDelta::key, StatKey.TYPE)
            // Tumbling buckets, not sliding windows: a sliding window operator silently drops an
            // element that is late
            // for some of its windows but not all; a bucket is either on time or goes whole to the
            // correction path.
            .window(TumblingEventTimeWindows.of(config.slide()))
            .allowedLateness(config.eventTime().allowedLateness())
            .sideOutputLateData(TOO_LATE)
            .aggregate(new DailyCountAggregate(), new DailyCountWindow())
            .uid("daily-counts")
            .name("daily counts");
    SingleOutputStreamOperator<CategoryStat> rolling =
        daily
            .keyBy(DailyCount::key, StatKey.TYPE)
            .connect(daily.getSideOutput(TOO_LATE).keyBy(ContributionDelta::key, StatKey.TYPE))
            .process(
                new RollingCounts(
                    config.slide(),
                    config.windows(),
                    config.maxWindowSlides(),
                    config.retention().counts(),
                    config.eventTime().allowedLateness()))
            .uid("rolling-counts")
            .name("rolling counts, corrections, surge detector");
    DataStream<CategoryStat> releases =
        deltas
            .getSideOutput(IssueContributionFunction.RELEASE_DELTAS)
            .keyBy(ReleaseDelta::key, StatKey.TYPE)
            .process(new ReleaseCounts(config.retention().issueState()))
            .uid("release-counts")
            .name("release counts");
    // Alerts test every category of a framework together (one family for the false-discovery
    // control), so their
    // inputs meet keyed by framework: category deltas, category × stage pairs and release reports
    // (one dimension's).
    // The alerts test counts of labelled issues (docs/alerts.md says why): a delta that moves only
    // the expected count does not reach them.
    DataStream<AlertCount> alertCounts =
        deltas
            .filter(d -> d.delta != 0)
            .name("labelled-count deltas")
            .map(AlertCount::of)
            .name("alert counts")
            .union(
                deltas
                    .getSideOutput(IssueContributionFunction.COMBINATIONS)
                    .map(AlertCount::of)
                    .name("alert pair counts"),
                deltas
                    .getSideOutput(IssueContributionFunction.RELEASE_DELTAS)
                    .filter(r -> r.dimension == dev.faultline.schemas.taxonomy.Dimension.STAGE)
                    .map(AlertCount::of)
                    .name("alert release reports"));
    DataStream<StatAlert> alerts =
        alertCounts
            .keyBy(c -> c.framework)
            .process(new EmergenceDetector(config.alerts(), config.retention().counts()))
            .uid("emergence-detector")
            .name("emerging-category alerts");
    return new Outputs(rolling.union(releases), alerts);
  }
}
