package dev.faultline.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.llm.Answer;
import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.AnswerParser;
import dev.faultline.classifier.llm.AnswerSchema;
import dev.faultline.classifier.llm.LlmCalibration;
import dev.faultline.embedded.EmbeddedKafka;
import dev.faultline.jobs.llm.KafkaAnswerStore;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code faultline llm push} against a real in-process Kafka broker: the cache directory's valid
 * answers land in the answers topic under their keys with the value the stream's own store reads;
 * an invalid file is named and skipped; the model's calibration goes with them and the stream's
 * store reads it back; a second push sends nothing.
 */
class LlmPushIT {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return new Faultline()
        .run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void pushesTheCachesValidAnswersOnceAndNamesTheInvalidOnes(@TempDir Path tmp) throws Exception {
    AnswerParser parser = new AnswerParser(new AnswerSchema(Taxonomy.load()));
    Path dir = tmp.resolve("cache");
    AnswerCache cache = new AnswerCache(dir);
    List<AnswerCache.Entry> entries = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Answer a = new Answer(hangCodes(i), Map.of("torch", "2." + i + ".0"));
      AnswerCache.Entry e =
          new AnswerCache.Entry(
              AnswerCache.key("faultline-prompt-2.test", "test-model", "item " + i),
              "faultline-prompt-2.test",
              "test-model",
              parser.format(a),
              100 + i,
              20,
              "batch");
      cache.put(e);
      entries.add(e);
    }
    // The model's calibration (llm calibrate): a labelled item it answered HANG, truly a hang.
    LlmCalibration calibration =
        LlmCalibration.fit(
            "test-model",
            "faultline-prompt-2.test",
            List.of(
                Map.entry(
                    new Answer(hangCodes(0)),
                    Map.of(dev.faultline.schemas.taxonomy.Dimension.SYMPTOM, "HANG"))),
            0.1,
            2.0,
            "2026-01-01T00:00:00Z",
            "one synthetic item");
    cache.putCalibration(calibration);
    // A file with an answer the schema refuses (an unknown code), written by hand.
    String badKey = AnswerCache.key("faultline-prompt-2.test", "test-model", "bad item");
    Path bad = dir.resolve(badKey.substring(0, 2)).resolve(badKey + ".json");
    Files.createDirectories(bad.getParent());
    Files.writeString(
        bad,
        "{\"key\":\""
            + badKey
            + "\",\"prompt_version\":\"p\",\"model\":\"m\",\"answer\":{\"kind\":\"DEADLOCK\"},"
            + "\"usage\":{},\"origin\":\"batch\"}\n");

    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("kafka"), 0)) {
      String topic = Topic.LLM_ANSWERS.topicName();
      int code =
          run(
              "llm",
              "push",
              "--cache",
              dir.toString(),
              "--kafka-bootstrap",
              kafka.bootstrapServers());
      assertEquals(1, code, "one file was rejected: " + out + err);
      assertTrue(out.toString().contains("4 answers in"), out.toString());
      assertTrue(out.toString().contains("3 sent, 0 already in " + topic), out.toString());
      assertTrue(out.toString().contains("1 calibrations: 1 sent, 0 already in"), out.toString());
      assertTrue(err.toString().contains(bad.toString()), err.toString());
      assertTrue(err.toString().contains("missing field"), err.toString());

      Properties props = new Properties();
      props.put("bootstrap.servers", kafka.bootstrapServers());
      try (KafkaAnswerStore store = KafkaAnswerStore.open(props, topic)) {
        assertEquals(3, store.size());
        for (AnswerCache.Entry e : entries) {
          assertEquals(
              e, store.get(e.key()).orElseThrow(), "the stream reads back what was pushed");
        }
        LlmCalibration read =
            store.calibration("test-model", "faultline-prompt-2.test").orElseThrow();
        assertEquals(
            calibration.row(dev.faultline.schemas.taxonomy.Dimension.SYMPTOM, "HANG"),
            read.row(dev.faultline.schemas.taxonomy.Dimension.SYMPTOM, "HANG"),
            "every subtask reading the topic gets the calibration");
        // (1 + 2 * 0.9) / 3
        assertEquals(
            2.8 / 3,
            read.row(dev.faultline.schemas.taxonomy.Dimension.SYMPTOM, "HANG").get("HANG"),
            1e-12);
        assertTrue(store.calibration("test-model", "another-prompt").isEmpty());
      }
      assertEquals(4, records(kafka, topic));
      assertEquals(
          "compact",
          kafka
              .admin()
              .describeConfigs(
                  List.of(
                      new org.apache.kafka.common.config.ConfigResource(
                          org.apache.kafka.common.config.ConfigResource.Type.TOPIC, topic)))
              .all()
              .get()
              .values()
              .iterator()
              .next()
              .get("cleanup.policy")
              .value(),
          "the command created the topic compacted");

      Files.delete(bad);
      assertEquals(
          0,
          run(
              "llm",
              "push",
              "--cache",
              dir.toString(),
              "--kafka-bootstrap",
              kafka.bootstrapServers()),
          err.toString());
      assertTrue(out.toString().contains("0 sent, 3 already in"), out.toString());
      assertTrue(out.toString().contains("1 calibrations: 0 sent, 1 already in"), out.toString());
      assertEquals(4, records(kafka, topic), "a second push writes nothing");
    }
  }

  @Test
  void aMissingDirectoryOrKafkaIsAClearUsageError(@TempDir Path tmp) {
    assertEquals(
        2,
        run("llm", "push", "--cache", tmp.resolve("nope").toString(), "--kafka-bootstrap", "x:1"));
    assertTrue(err.toString().contains("is not a directory"), err.toString());
  }

  /** Records in the topic (all partitions), compacted or not. */
  private static int records(EmbeddedKafka kafka, String topic) {
    Properties c = new Properties();
    c.put("bootstrap.servers", kafka.bootstrapServers());
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      int n = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))
          && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          n++;
        }
      }
      return n;
    }
  }

  private static java.util.Map<dev.faultline.schemas.taxonomy.Dimension, Object> hangCodes(int i) {
    java.util.Map<dev.faultline.schemas.taxonomy.Dimension, Object> c =
        new java.util.LinkedHashMap<>();
    c.put(dev.faultline.schemas.taxonomy.Dimension.KIND, dev.faultline.schemas.taxonomy.Kind.BUG);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.SYMPTOM,
        i == 0
            ? dev.faultline.schemas.taxonomy.Symptom.HANG
            : dev.faultline.schemas.taxonomy.Symptom.RUNTIME_CRASH);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.ROOT_CAUSE,
        dev.faultline.schemas.taxonomy.RootCause.UNKNOWN);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.FIX_PATTERN,
        dev.faultline.schemas.taxonomy.FixPattern.UNKNOWN);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.STAGE,
        dev.faultline.schemas.taxonomy.Stage.COMMUNICATION);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.PHASE,
        dev.faultline.schemas.taxonomy.Phase.TRAINING);
    c.put(
        dev.faultline.schemas.taxonomy.Dimension.DISTRIBUTED_SPECIFIC,
        i == 2 ? null : Boolean.TRUE);
    return c;
  }
}
