package dev.faultline.jobs.llm;

import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.LlmCalibration;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answers of the language-model tier in a compacted Kafka topic ({@code
 * faultline.llm-answers}), keyed by the answer's cache key. Each subtask of the upgrade operator
 * opens one: it reads the topic from the start to its end offsets before the first item is looked
 * up (so answers given before the job started, a replay's among them, cost no request), then
 * follows the topic in a background thread (answers other subtasks and jobs give), and writes each
 * new answer to it. Compaction keeps one record per key, so the topic and the memory it takes grow
 * with the number of distinct (prompt, model, content) triples, not with traffic: a few hundred
 * bytes each. Answers that name their item (batch answers) are also indexed by (prompt version,
 * model, item), the newest by record time winning ({@link #forItem}). Calibrations of a model and
 * prompt version ({@link CalibrationRecords}) are kept apart, the newest winning ({@link
 * #calibration}).
 *
 * <p>Writes are at least once (idempotent producer, acks=all) and need no transaction: a key's
 * answers are interchangeable, and an answer lost with a crashed task is asked again at most once.
 */
public final class KafkaAnswerStore implements AnswerStore {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaAnswerStore.class);
  private static final Duration LOAD_TIMEOUT = Duration.ofMinutes(5);

  private final String topic;
  private final Map<String, AnswerCache.Entry> answers = new ConcurrentHashMap<>();
  private final ItemIndex items = new ItemIndex();
  private final Map<String, LlmCalibration> calibrations = new ConcurrentHashMap<>();
  private final KafkaProducer<String, byte[]> producer;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread follower;
  private volatile boolean running = true;

  private KafkaAnswerStore(Properties kafka, String topic) {
    this.topic = topic;
    Properties c = new Properties();
    c.putAll(kafka);
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    c.remove(
        ConsumerConfig
            .GROUP_ID_CONFIG); // assigned partitions, no group: every subtask reads everything
    consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
    Properties p = new Properties();
    p.putAll(kafka);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    follower = new Thread(this::follow, "llm-answers-follower");
    follower.setDaemon(true);
  }

  /**
   * Opens the store: reads the whole topic up to its current end, then follows it.
   *
   * @param kafka client properties ({@code bootstrap.servers}, security)
   */
  public static KafkaAnswerStore open(Properties kafka, String topic) {
    KafkaAnswerStore s = new KafkaAnswerStore(kafka, topic);
    try {
      s.load();
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
    s.follower.start();
    return s;
  }

  /** A factory for the task managers: the client properties and the topic. */
  public static Factory factory(Properties kafka, String topic) {
    Properties copy = new Properties();
    copy.putAll(kafka);
    return () -> open(copy, topic);
  }

  /**
   * Creates the topic compacted if it does not exist (where the job is built, once); warns if it
   * exists and is not compacted, since then old answers are deleted by retention and asked again.
   */
  public static void ensureTopic(
      Properties kafka, String topic, int partitions, Map<String, String> configs) {
    Map<String, Object> admin = new HashMap<>();
    kafka.forEach((k, v) -> admin.put(String.valueOf(k), v));
    admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
    try (Admin a = Admin.create(admin)) {
      if (!a.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic)) {
        try {
          a.createTopics(
                  List.of(
                      new NewTopic(
                              topic, java.util.Optional.of(partitions), java.util.Optional.empty())
                          .configs(configs)))
              .all()
              .get(30, TimeUnit.SECONDS);
          LOG.info("Created the answers topic {} with {}", topic, configs);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
        return;
      }
      ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
      Config config = a.describeConfigs(List.of(r)).all().get(30, TimeUnit.SECONDS).get(r);
      String policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value();
      if (policy == null || !policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT)) {
        LOG.warn(
            "The answers topic {} has cleanup.policy={}, not compact: answers expire and are asked again."
                + " Fix: kafka-configs --alter --entity-type topics --entity-name {} --add-config cleanup.policy=compact",
            topic,
            policy,
            topic);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while checking the topic " + topic, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "cannot create or check the answers topic " + topic + ": " + e.getMessage(), e);
    }
  }

  private void load() {
    List<TopicPartition> partitions =
        consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
            .map(p -> new TopicPartition(p.topic(), p.partition()))
            .toList();
    if (partitions.isEmpty()) {
      throw new IllegalStateException("the answers topic " + topic + " does not exist");
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
    long deadline = System.nanoTime() + LOAD_TIMEOUT.toNanos();
    while (!caughtUp(end)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the answers topic " + topic + " was not read to its end within " + LOAD_TIMEOUT);
      }
      take(consumer.poll(Duration.ofMillis(200)));
    }
    LOG.info(
        "Loaded {} answers from {} ({} items with a batch answer; calibrations: {})",
        answers.size(),
        topic,
        items.size(),
        calibrations.keySet());
  }

  private boolean caughtUp(Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
      if (consumer.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  private void take(Iterable<ConsumerRecord<String, byte[]>> records) {
    for (ConsumerRecord<String, byte[]> r : records) {
      if (CalibrationRecords.isKey(r.key())) {
        // A model's calibration (llm calibrate, llm push): the newest per model and prompt wins.
        if (r.value() == null) {
          calibrations.remove(r.key());
        } else {
          CalibrationRecords.decode(r.value()).ifPresent(c -> calibrations.put(r.key(), c));
        }
        continue;
      }
      if (r.value() == null) {
        answers.remove(r.key()); // a tombstone: someone deleted the answer
        items.remove(r.key());
        continue;
      }
      AnswerRecords.decode(r.value())
          .ifPresent(
              e -> {
                answers.put(e.key(), e);
                items.offer(e, r.timestamp());
              });
    }
  }

  private void follow() {
    while (running) {
      try {
        take(consumer.poll(Duration.ofMillis(500)));
      } catch (org.apache.kafka.common.errors.WakeupException e) {
        return;
      } catch (RuntimeException e) {
        if (running) {
          LOG.warn(
              "following {} failed ({}); answers given elsewhere are not seen until the task restarts",
              topic,
              e.toString());
        }
        return;
      }
    }
  }

  @Override
  public Optional<AnswerCache.Entry> get(String key) {
    return Optional.ofNullable(answers.get(key));
  }

  @Override
  public Optional<AnswerCache.Entry> forItem(String promptVersion, String model, String item) {
    return items.get(promptVersion, model, item);
  }

  @Override
  public Optional<LlmCalibration> calibration(String model, String promptVersion) {
    for (LlmCalibration c : calibrations.values()) {
      if (c.model().equals(model) && c.promptVersion().equals(promptVersion)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  @Override
  public void put(AnswerCache.Entry entry) {
    answers.put(entry.key(), entry);
    items.offer(entry, System.currentTimeMillis());
    try {
      producer.send(
          new ProducerRecord<>(topic, entry.key(), AnswerRecords.encode(entry)),
          (m, e) -> {
            if (e != null) {
              LOG.warn("cannot write the answer {} to {}: {}", entry.key(), topic, e.toString());
            }
          });
    } catch (RuntimeException e) {
      LOG.warn("cannot write the answer {} to {}: {}", entry.key(), topic, e.toString());
    }
  }

  @Override
  public long size() {
    return answers.size();
  }

  @Override
  public void close() {
    running = false;
    consumer.wakeup();
    try {
      if (follower.isAlive()) {
        follower.join(5_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      producer.close(Duration.ofSeconds(10));
    } finally {
      if (!follower.isAlive()) {
        consumer.close(Duration.ofSeconds(5));
      }
    }
  }
}
