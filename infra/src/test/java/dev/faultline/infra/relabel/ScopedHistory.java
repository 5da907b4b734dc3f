package dev.faultline.infra.relabel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.jobs.IssuePipelineJob;
import dev.faultline.jobs.JobConfig;
import dev.faultline.jobs.Replay;
import dev.faultline.jobs.classify.ClassifierTier;
import dev.faultline.jobs.classify.ReplayScope;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.Topic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.neo4j.driver.Driver;

/**
 * A history for scoped relabelling tests ({@code reclassify --framework DeepSpeed --since
 * 2024-01-01}): issues and merged fixes of DeepSpeed created in 2024 (in scope), a DeepSpeed issue
 * of 2023 and PyTorch issues and a fix of 2024 (out of scope), first labelled by the rules tier
 * with a bounded replay of its own. Then {@link #assertOnlyTheScopeWasRelabelled} checks, by node,
 * that the in-scope ones carry the learned tier's version and the others still the rules'.
 */
public final class ScopedHistory {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What {@link #SCOPE_FLAGS} selects. */
  public static final List<String> IN_SCOPE =
      List.of(
          "deepspeedai/DeepSpeed#1",
          "deepspeedai/DeepSpeed#2",
          "deepspeedai/DeepSpeed#3",
          "deepspeedai/DeepSpeed#101");

  /** What it leaves alone. */
  public static final List<String> OUT_OF_SCOPE =
      List.of(
          "deepspeedai/DeepSpeed#4",
          "pytorch/pytorch#5",
          "pytorch/pytorch#6",
          "pytorch/pytorch#102");

  /** The scope as {@code faultline reclassify} flags. */
  public static final List<String> SCOPE_FLAGS =
      List.of("--framework", "DeepSpeed", "--since", "2024-01-01");

  private ScopedHistory() {}

  /**
   * Sends the history's deliveries and labels them with the rules tier (a bounded replay on a local
   * mini cluster, under a group of its own); returns once the graph holds them all.
   */
  public static void labelWithTheRules(String[] conn) throws Exception {
    try (KafkaProducer<String, byte[]> producer = producer(conn[1])) {
      String body =
          "Running with deepspeed 0.14.2 and torch 2.3.0 on 2 nodes of 8 GPUs; the job stops at"
              + " step 3 with the error in the title. Config: zero stage 3, bf16.";
      send(producer, issue("deepspeedai/DeepSpeed", 1, "Training hangs in all_reduce", body, 2024));
      send(producer, issue("deepspeedai/DeepSpeed", 2, "CUDA out of memory in ZeRO-3", body, 2024));
      send(producer, issue("deepspeedai/DeepSpeed", 3, "Loss is nan with bf16", body, 2024));
      send(producer, issue("deepspeedai/DeepSpeed", 4, "NCCL error at init", body, 2023));
      send(producer, issue("pytorch/pytorch", 5, "FSDP hangs in all_gather", body, 2024));
      send(producer, issue("pytorch/pytorch", 6, "DDP out of memory on rank 1", body, 2024));
      send(producer, mergedFix("deepspeedai/DeepSpeed", 101, "Fix hang in all_reduce", 1));
      send(producer, mergedFix("pytorch/pytorch", 102, "Fix FSDP hang in all_gather", 5));
    }
    JobConfig history =
        JobConfig.fromArgs(
            concat(
                new String[] {
                  "--group-id", "history-" + UUID.randomUUID(), "--checkpoint-interval-ms", "500"
                },
                conn),
            Map.of());
    Reclassify.replay(
        history.withTier(ClassifierTier.RULES).withReplay(Replay.of(ReplayScope.ALL)),
        1000,
        p -> {},
        j -> {});
  }

  /** Item id ({@code owner/name#n}) to the classifier version the graph holds for it. */
  public static Map<String, String> versions(Driver driver) {
    Map<String, String> out = new LinkedHashMap<>();
    driver
        .session()
        .run(
            "MATCH (n) WHERE (n:Issue OR n:PullRequest) AND n.classifierVersion IS NOT NULL"
                + " RETURN n.id AS id, n.classifierVersion AS v ORDER BY id")
        .forEachRemaining(r -> out.put(r.get("id").asString(), r.get("v").asString()));
    return out;
  }

  /** Every item of the history has the rules' labels. */
  public static void assertAllByTheRules(Driver driver) {
    Map<String, String> v = versions(driver);
    List<String> all = new ArrayList<>(IN_SCOPE);
    all.addAll(OUT_OF_SCOPE);
    for (String id : all) {
      assertTrue(
          v.getOrDefault(id, "").startsWith("rules-"), id + " labelled by the rules first: " + v);
    }
  }

  /**
   * The items in scope were relabelled by the learned tier, the others keep the rules' labels, and
   * the report covers DeepSpeed's in-scope issues only.
   */
  public static void assertOnlyTheScopeWasRelabelled(Driver driver, Path reportDir)
      throws Exception {
    Map<String, String> v = versions(driver);
    for (String id : IN_SCOPE) {
      assertTrue(
          v.getOrDefault(id, "").startsWith("learned-"), id + " is in scope, relabelled: " + v);
    }
    for (String id : OUT_OF_SCOPE) {
      assertTrue(
          v.getOrDefault(id, "").startsWith("rules-"),
          id + " is out of scope, keeps its label: " + v);
    }
    JsonNode report = JSON.readTree(reportDir.resolve("report.json").toFile());
    List<String> frameworks = new ArrayList<>();
    report.fieldNames().forEachRemaining(frameworks::add);
    assertEquals(List.of("DeepSpeed"), frameworks, "the report's frameworks");
    assertEquals(
        3,
        report.at("/DeepSpeed/" + Reclassify.CLASSIFIER_VERSION + "/compared").asInt(),
        "" + report);
    assertEquals(
        3,
        report.at("/DeepSpeed/" + Reclassify.CLASSIFIER_VERSION + "/changed").asInt(),
        "" + report);
  }

  /** {@code --kafka-bootstrap B --neo4j-uri U --neo4j-user N --neo4j-password P}. */
  public static String[] conn(String bootstrap, String boltUri, String user, String password) {
    return new String[] {
      "--kafka-bootstrap",
      bootstrap,
      "--neo4j-uri",
      boltUri,
      "--neo4j-user",
      user,
      "--neo4j-password",
      password
    };
  }

  /** All topics, two partitions each. */
  public static List<String> topics() {
    return Arrays.stream(Topic.values()).map(Topic::topicName).toList();
  }

  /** The live issue pipeline on this JVM's mini cluster (group "live") with {@code tier}. */
  static JobClient liveJob(String[] conn, ClassifierTier tier) throws Exception {
    return liveJob(conn, tier, Map.of());
  }

  /**
   * As {@link #liveJob(String[], ClassifierTier)}, with the language-model tier of {@code llm}'s
   * settings ({@code FAULTLINE_LLM_*}).
   */
  static JobClient liveJob(String[] conn, ClassifierTier tier, Map<String, String> llm)
      throws Exception {
    JobConfig config =
        JobConfig.fromArgs(
            concat(
                new String[] {
                  "--group-id", "live", "--checkpoint-interval-ms", "1000", "--sink-flush-ms", "200"
                },
                conn),
            llm);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    IssuePipelineJob.build(env, config.withTier(tier));
    return env.executeAsync("live");
  }

  public static String[] concat(String[] a, String[] b) {
    String[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  /** A producer of the deliveries topic (acks all). */
  static KafkaProducer<String, byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("acks", "all");
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  /** Sends a delivery under its delivery key, as the receiver does, and waits for the ack. */
  public static void send(KafkaProducer<String, byte[]> producer, Delivery d) throws Exception {
    String key = DeliveryKey.of(d.getEvent(), JSON.readTree(d.getPayloadJson()));
    producer
        .send(
            new ProducerRecord<>(
                Topic.DELIVERIES.topicName(), key, AvroCodec.deliveries().encode(d)))
        .get();
  }

  private static Delivery issue(String repo, int number, String title, String body, int year) {
    String created = year + "-03-01T10:00:00Z";
    ObjectNode payload = JSON.createObjectNode();
    payload.put("action", "opened");
    ObjectNode issue = payload.putObject("issue");
    issue.put("number", number);
    issue.put("title", title);
    issue.put("body", body);
    issue.put("state", "open");
    issue.put("html_url", "https://github.com/" + repo + "/issues/" + number);
    issue.putObject("user").put("login", "reporter");
    issue.putArray("labels").addObject().put("name", "bug");
    issue.put("created_at", created);
    issue.put("updated_at", created);
    issue.putNull("closed_at");
    payload.putObject("repository").put("full_name", repo);
    return RelabelFixtures.delivery("issues", "opened", repo, payload);
  }

  private static Delivery mergedFix(String repo, int number, String title, int fixes) {
    return RelabelFixtures.mergedPullRequest(
        repo,
        number,
        title,
        "Fixes #"
            + fixes
            + ". The collective waited on a stream that was never synchronised; this synchronises"
            + " it before the call.",
        new RelabelFixtures.MergedChange("2024-03-02T10:00:00Z", "2024-03-05T10:00:00Z", 12, 3, 1));
  }
}
