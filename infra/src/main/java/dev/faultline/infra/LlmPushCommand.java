package dev.faultline.infra;

import dev.faultline.classifier.llm.AnswerCache;
import dev.faultline.classifier.llm.AnswerParser;
import dev.faultline.classifier.llm.AnswerSchema;
import dev.faultline.classifier.llm.LlmCalibration;
import dev.faultline.cli.CliCommand;
import dev.faultline.jobs.llm.AnswerRecords;
import dev.faultline.jobs.llm.CalibrationRecords;
import dev.faultline.jobs.llm.KafkaAnswerStore;
import dev.faultline.schemas.Topic;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code faultline llm push --cache DIR}: sends the answers of a CLI cache directory (filled by
 * {@code llm import} from a Batch API, or by {@code classify --tier llm}) into the stream's
 * compacted answers topic, so the pipeline and {@code reclassify} use them without a request.
 *
 * <p>Same key (the cache key: SHA-256 of prompt version, model, item content) and same JSON value
 * as the stream's own {@link KafkaAnswerStore} writes ({@link AnswerRecords}), the answer's issue
 * ({@code item}, filled by {@code llm import}) included, by which the stream finds a batch answer
 * when the text has changed since the export. Idempotent: the topic is read to its end
 * first, and an answer already there with the same value is not sent again, so a second push sends
 * nothing; a push killed midway and run again sends the rest. Every answer is validated again
 * before it is sent; an invalid or unreadable file is reported with its path and skipped (exit 1 at
 * the end, after the valid answers went out). The calibrations of the directory ({@code llm
 * calibrate}, {@link AnswerCache#calibrations}) go with them ({@link CalibrationRecords}), likewise
 * only when the topic does not hold the same one, so every task manager reading the topic maps
 * those models' answers through their confusion rows.
 */
@Command(
    name = "push",
    description = {
      "Send the answers of a cache directory into the stream's answers topic.",
      "",
      "Reads every answer of --cache DIR (as written by llm import or classify --tier llm), validates it again",
      "and writes it to the compacted topic faultline.llm-answers under its cache key, with the JSON the stream",
      "writes. Answers already in the topic with the same value are not sent again (idempotent). The models'",
      "calibrations in DIR/calibrations/ (llm calibrate) go too, so the stream gives those answers their measured",
      "probabilities. Kafka from --kafka-bootstrap or FAULTLINE_KAFKA_BOOTSTRAP_SERVERS; client properties with",
      "--kafka-property k=v."
    })
public final class LlmPushCommand extends CliCommand {

  private static final Pattern FILE = Pattern.compile("[0-9a-f]{64}\\.json");

  /** Partitions of the answers topic when this command creates it (as the issue pipeline does). */
  static final int PARTITIONS = 4;

  @Option(
      names = "--cache",
      required = true,
      paramLabel = "DIR",
      description = "the answer cache directory")
  Path cache;

  @Option(
      names = "--kafka-bootstrap",
      paramLabel = "HOST:PORT",
      description =
          "Kafka bootstrap servers (default FAULTLINE_KAFKA_BOOTSTRAP_SERVERS, else 127.0.0.1:9092,"
              + " the local stack's)")
  String bootstrap;

  @Option(
      names = "--topic",
      paramLabel = "NAME",
      description = "the answers topic (default faultline.llm-answers)")
  String topic = Topic.LLM_ANSWERS.topicName();

  @Option(
      names = "--kafka-property",
      paramLabel = "KEY=VALUE",
      description = "a Kafka client property (security.protocol, sasl.jaas.config, ...)")
  Map<String, String> kafkaProperties = new LinkedHashMap<>();

  private final Map<String, String> env;

  public LlmPushCommand(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** What a push did. */
  record Outcome(
      int files,
      int sent,
      int alreadyThere,
      List<String> rejected,
      int withItem,
      int calibrations,
      int calibrationsSent) {}

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(cache)) {
      throw usageError("--cache " + cache + " is not a directory");
    }
    // the jobs' default: the local stack's broker
    String servers =
        bootstrap != null
            ? bootstrap
            : env.getOrDefault("FAULTLINE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092");
    if (servers == null || servers.isBlank()) {
      throw usageError(
          "no Kafka: pass --kafka-bootstrap HOST:PORT or set FAULTLINE_KAFKA_BOOTSTRAP_SERVERS");
    }
    Properties kafka = new Properties();
    kafka.putAll(kafkaProperties);
    kafka.put("bootstrap.servers", servers);
    Outcome o;
    try {
      o = push(cache, kafka, topic, out);
    } catch (IllegalStateException | org.apache.kafka.common.KafkaException e) {
      err.println(
          "llm push: cannot write to Kafka at "
              + servers
              + " (topic "
              + topic
              + "): "
              + message(e));
      return 1;
    }
    out.printf(
        Locale.ROOT,
        "llm push: %d answers in %s: %d sent, %d already in %s, %d rejected%n",
        o.files(),
        cache,
        o.sent(),
        o.alreadyThere(),
        topic,
        o.rejected().size());
    out.printf(
        Locale.ROOT,
        "  %d of the valid answers name their issue (the stream's fallback when an issue's text"
            + " changed since the export)%n",
        o.withItem());
    if (o.calibrations() > 0) {
      out.printf(
          Locale.ROOT,
          "  %d calibrations: %d sent, %d already in %s%n",
          o.calibrations(),
          o.calibrationsSent(),
          o.calibrations() - o.calibrationsSent(),
          topic);
    }
    o.rejected().forEach(r -> err.println("  rejected: " + r));
    return o.rejected().isEmpty() ? 0 : 1;
  }

  private static String message(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t == e ? e.getMessage() : e.getMessage() + " (" + t.getMessage() + ")";
  }

  /** The answer files of a cache directory, in key order. */
  static List<Path> answerFiles(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir, 2)) {
      return walk.filter(p -> FILE.matcher(p.getFileName().toString()).matches()).sorted().toList();
    }
  }

  /** An idempotent producer's settings: every answer acknowledged by all in-sync replicas. */
  private static Properties producerProperties(Properties kafka) {
    Properties p = new Properties();
    p.putAll(kafka);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    p.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
    p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
    return p;
  }

  /** Pushes every valid answer of {@code dir} not yet in the topic with the same value. */
  static Outcome push(Path dir, Properties kafka, String topic, PrintStream progress)
      throws Exception {
    List<Path> files = answerFiles(dir);
    AnswerCache cache = new AnswerCache(dir);
    AnswerParser parser = new AnswerParser(new AnswerSchema(Taxonomy.load()));
    KafkaAnswerStore.ensureTopic(kafka, topic, PARTITIONS, Topic.LLM_ANSWERS.configs());
    Properties p = producerProperties(kafka);
    List<String> rejected = new ArrayList<>();
    int sent = 0;
    int there = 0;
    int withItem = 0;
    int calibrationsSent = 0;
    long started = System.nanoTime();
    long lastReport = started;
    try (KafkaAnswerStore existing = KafkaAnswerStore.open(kafka, topic);
        KafkaProducer<String, byte[]> producer =
            new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      List<Future<RecordMetadata>> pending = new ArrayList<>();
      for (int i = 0; i < files.size(); i++) {
        Path f = files.get(i);
        String key = f.getFileName().toString().replace(".json", "");
        Optional<AnswerCache.Entry> e = cache.get(key);
        if (e.isEmpty()) {
          rejected.add(f + ": not a readable answer file");
          continue;
        }
        AnswerParser.Result r = parser.parse(e.get().answer());
        if (r instanceof AnswerParser.Rejection rej) {
          rejected.add(f + ": " + rej.reason());
          continue;
        }
        if (e.get().item() != null) {
          withItem++;
        }
        byte[] value = AnswerRecords.encode(e.get());
        Optional<AnswerCache.Entry> known = existing.get(key);
        if (known.isPresent() && Arrays.equals(AnswerRecords.encode(known.get()), value)) {
          there++;
          continue;
        }
        pending.add(producer.send(new ProducerRecord<>(topic, key, value)));
        sent++;
        if (pending.size() >= 1000) {
          drain(pending);
        }
        long now = System.nanoTime();
        if (now - lastReport > 2_000_000_000L && progress != null) {
          lastReport = now;
          double rate = (i + 1) / ((now - started) / 1e9);
          progress.printf(
              Locale.ROOT,
              "llm push: %d of %d files read, %d sent (%.0f files/s, about %.0f s left)%n",
              i + 1,
              files.size(),
              sent,
              rate,
              (files.size() - i - 1) / rate);
        }
      }
      List<LlmCalibration> calibrations = cache.calibrations();
      for (LlmCalibration c : calibrations) {
        byte[] value = CalibrationRecords.encode(c);
        Optional<LlmCalibration> known = existing.calibration(c.model(), c.promptVersion());
        if (known.isPresent() && Arrays.equals(CalibrationRecords.encode(known.get()), value)) {
          continue;
        }
        pending.add(producer.send(new ProducerRecord<>(topic, CalibrationRecords.key(c), value)));
        calibrationsSent++;
      }
      drain(pending);
      producer.flush();
      return new Outcome(
          files.size(), sent, there, rejected, withItem, calibrations.size(), calibrationsSent);
    }
  }

  private static void drain(List<Future<RecordMetadata>> pending) throws Exception {
    for (Future<RecordMetadata> f : pending) {
      try {
        f.get(Duration.ofSeconds(90).toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException("Kafka refused an answer: " + message(e.getCause()), e);
      }
    }
    pending.clear();
  }
}
