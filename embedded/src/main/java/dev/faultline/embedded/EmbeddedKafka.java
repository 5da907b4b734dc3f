package dev.faultline.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker in KRaft mode (combined broker and controller), run in this JVM.
 *
 * <p>The log directory is formatted once; a later start on the same directory resumes the same
 * cluster with all its records and committed offsets. Listens on loopback only.
 */
public final class EmbeddedKafka implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
  private static final int NODE_ID = 1;

  private final Path logDir;
  private final int port;
  private final KafkaRaftServer server;
  private volatile boolean running;

  private EmbeddedKafka(Path logDir, int port, KafkaRaftServer server) {
    this.logDir = logDir;
    this.port = port;
    this.server = server;
  }

  /**
   * Formats {@code logDir} if it is new, then starts the broker on {@code 127.0.0.1:port} (0 picks
   * a free port).
   */
  public static EmbeddedKafka start(Path logDir, int port) throws IOException {
    Files.createDirectories(logDir);
    // two different free ports: the controller's must differ from the broker's, also from one given
    // but not yet bound
    int[] picked = FreePorts.pick(2);
    int brokerPort = port == 0 ? picked[0] : port;
    int controllerPort = picked[0] != brokerPort ? picked[0] : picked[1];
    Properties props = new Properties();
    props.put("process.roles", "broker,controller");
    props.put("node.id", Integer.toString(NODE_ID));
    props.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
    props.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    props.put("controller.listener.names", "CONTROLLER");
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("log.dirs", logDir.toAbsolutePath().toString());
    props.put("num.partitions", "1");
    props.put("default.replication.factor", "1");
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "3");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("transaction.state.log.num.partitions", "3");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("auto.create.topics.enable", "false");
    // The raw delivery topic is the system of record: keep it.
    props.put("log.retention.ms", "-1");
    props.put("log.flush.interval.messages", "1");
    props.put("unstable.api.versions.enable", "false");

    KafkaConfig config = new KafkaConfig(props, false);
    if (!Files.exists(logDir.resolve("meta.properties"))) {
      format(logDir);
    }
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    EmbeddedKafka kafka = new EmbeddedKafka(logDir, brokerPort, server);
    kafka.running = true;
    kafka.awaitReady(Duration.ofSeconds(60));
    LOG.info(
        "Kafka broker (KRaft) listening on {} with logs in {}", kafka.bootstrapServers(), logDir);
    return kafka;
  }

  private static void format(Path logDir) throws IOException {
    try {
      new Formatter()
          .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
          .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
          .setNodeId(NODE_ID)
          .setClusterId(Uuid.randomUuid().toString())
          .setDirectories(List.of(logDir.toAbsolutePath().toString()))
          .setMetadataLogDirectory(logDir.toAbsolutePath().toString())
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setControllerListenerName("CONTROLLER")
          .setIgnoreFormatted(true)
          .run();
    } catch (Exception e) {
      throw new IOException(
          "Could not format the Kafka log directory " + logDir + ": " + e.getMessage(), e);
    }
  }

  private void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try (Admin admin = admin()) {
        admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
        return;
      } catch (Exception e) {
        last = new IllegalStateException("Kafka broker not ready: " + e.getMessage(), e);
      }
    }
    throw last != null
        ? last
        : new IllegalStateException("Kafka broker not ready within " + timeout);
  }

  /** {@code host:port} for clients. */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  public Path logDir() {
    return logDir;
  }

  public boolean isRunning() {
    return running;
  }

  /** A new admin client; the caller closes it. */
  public Admin admin() {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000));
  }

  /** Creates the topics that do not exist yet; existing ones are left as they are. */
  public void createTopics(int partitions, Collection<String> names) {
    Map<String, Map<String, String>> topics = new java.util.LinkedHashMap<>();
    names.forEach(n -> topics.put(n, Map.of()));
    createTopics(partitions, topics);
  }

  /**
   * Creates the topics that do not exist yet, each with its topic configuration (e.g. {@code
   * cleanup.policy=compact}); existing ones are left as they are.
   */
  public void createTopics(int partitions, Map<String, Map<String, String>> topicsAndConfigs) {
    Collection<String> names = topicsAndConfigs.keySet();
    try (Admin admin = admin()) {
      Set<String> existing = admin.listTopics().names().get(15, TimeUnit.SECONDS);
      List<NewTopic> missing = new ArrayList<>();
      for (Map.Entry<String, Map<String, String>> t : topicsAndConfigs.entrySet()) {
        if (!existing.contains(t.getKey())) {
          missing.add(new NewTopic(t.getKey(), partitions, (short) 1).configs(t.getValue()));
        }
      }
      if (missing.isEmpty()) {
        return;
      }
      try {
        admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
      }
      LOG.info("Created topics {}", missing.stream().map(NewTopic::name).toList());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while creating topics", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "Could not create topics " + names + ": " + e.getMessage(), e);
    }
  }

  /** Stops the broker; its log directory stays for a later start. */
  @Override
  public void close() {
    if (!running) {
      return;
    }
    running = false;
    server.shutdown();
    server.awaitShutdown();
    LOG.info("Kafka broker stopped");
  }
}
