package dev.faultline.infra.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.embedded.testing.Poll;
import dev.faultline.graph.GraphSchema;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import dev.faultline.schemas.DeliveryKey;
import dev.faultline.schemas.DeliverySource;
import dev.faultline.schemas.Topic;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.SessionConfig;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * {@link FlinkClusterIT}'s path on containers, for machines with a Docker engine ({@code mvn
 * -Pcontainers -pl infra verify}): Kafka, Neo4j and a Flink session cluster (JobManager + 2
 * TaskManagers) from the image tags pinned in {@code infra/deploy/compose/.env}; the job jar
 * submitted with {@code faultline jobs submit}; deliveries reach the graph. Skipped, never failed,
 * when no Docker engine answers.
 */
class FlinkContainersIT {
  private static final String PASSWORD =
      "containers-" + UUID.randomUUID().toString().substring(0, 8);

  @Test
  void pipelineJarRunsOnContainerisedFlinkAgainstContainerisedKafkaAndNeo4j() throws Exception {
    if (!dockerAvailable()) {
      System.out.println(
          "FlinkContainersIT: no Docker engine on this machine, skipped (FlinkClusterIT covers the same path with child JVMs)");
    }
    Assumptions.assumeTrue(
        dockerAvailable(),
        "No Docker engine on this machine: FlinkContainersIT skipped (FlinkClusterIT covers the same path with child JVMs)");
    Map<String, String> images =
        images(Path.of(System.getProperty("faultline.compose.env", "deploy/compose/.env")));
    Path jobJar =
        Path.of(
            System.getProperty("faultline.job.jar", "target/flink-dist/usrlib/faultline-jobs.jar"));
    String flinkProperties =
        "jobmanager.rpc.address: jobmanager\ntaskmanager.numberOfTaskSlots: 2\nparallelism.default: 2\n";
    try (Network network = Network.newNetwork();
        KafkaContainer kafka =
            new KafkaContainer(
                    DockerImageName.parse(images.get("KAFKA_IMAGE"))
                        .asCompatibleSubstituteFor("apache/kafka"))
                .withNetwork(network)
                .withListener("kafka:19092");
        GenericContainer<?> neo4j =
            new GenericContainer<>(DockerImageName.parse(images.get("NEO4J_IMAGE")))
                .withNetwork(network)
                .withNetworkAliases("neo4j")
                .withExposedPorts(7687)
                .withEnv("NEO4J_AUTH", "neo4j/" + PASSWORD)
                .withEnv("NEO4J_dbms_usage__report_enabled", "false")
                .waitingFor(Wait.forLogMessage(".*Started.*", 1))
                .withStartupTimeout(Duration.ofMinutes(3));
        GenericContainer<?> jobManager =
            new GenericContainer<>(DockerImageName.parse(images.get("FLINK_IMAGE")))
                .withNetwork(network)
                .withNetworkAliases("jobmanager")
                .withCommand("jobmanager")
                .withExposedPorts(8081)
                .withEnv("FLINK_PROPERTIES", flinkProperties)
                .waitingFor(Wait.forHttp("/overview").forPort(8081));
        GenericContainer<?> taskManagers =
            new GenericContainer<>(DockerImageName.parse(images.get("FLINK_IMAGE")))
                .withNetwork(network)
                .withCommand("taskmanager")
                .withEnv("FLINK_PROPERTIES", flinkProperties)) {
      kafka.start();
      neo4j.start();
      jobManager.start();
      taskManagers.start();
      String bootstrap = kafka.getBootstrapServers();
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
        admin
            .createTopics(
                Arrays.stream(Topic.values())
                    .map(t -> new NewTopic(t.topicName(), 4, (short) 1))
                    .toList())
            .all()
            .get();
      }
      String boltFromHost = "bolt://" + neo4j.getHost() + ":" + neo4j.getMappedPort(7687);
      try (Driver driver =
          GraphDatabase.driver(boltFromHost, AuthTokens.basic("neo4j", PASSWORD))) {
        new GraphSchema(driver, "neo4j").migrate();
        String jobManagerAddress = jobManager.getHost() + ":" + jobManager.getMappedPort(8081);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code =
            new JobsCommand(System.getenv())
                .run(
                    new String[] {
                      "submit",
                      "--jobmanager",
                      jobManagerAddress,
                      "--job",
                      "pipeline",
                      "--jar",
                      jobJar.toString(),
                      "--parallelism",
                      "2",
                      "--kafka-bootstrap",
                      "kafka:19092",
                      "--neo4j-uri",
                      "bolt://neo4j:7687",
                      "--neo4j-user",
                      "neo4j",
                      "--neo4j-password",
                      PASSWORD,
                      "--checkpoint-interval-ms",
                      "1000"
                    },
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    System.err);
        assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
        Matcher m =
            Pattern.compile("as job ([0-9a-f]{32})").matcher(out.toString(StandardCharsets.UTF_8));
        assertTrue(m.find(), out.toString(StandardCharsets.UTF_8));
        FlinkRestClient.forJobManager(jobManagerAddress)
            .awaitRunning(m.group(1), Duration.ofMinutes(2));

        String repo = "tc-" + UUID.randomUUID().toString().substring(0, 8) + "/DeepSpeed";
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        try (KafkaProducer<String, byte[]> producer =
            new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
          for (int n = 1; n <= 5; n++) {
            String payload =
                "{\"action\":\"opened\",\"issue\":{\"number\":"
                    + n
                    + ",\"title\":\"NCCL timeout "
                    + n
                    + "\",\"body\":\"allreduce hangs\",\"state\":\"open\","
                    + "\"labels\":[],\"created_at\":\"2024-03-01T10:00:00Z\",\"updated_at\":\"2024-03-01T10:00:00Z\"},\"repository\":{\"full_name\":\""
                    + repo
                    + "\"}}";
            Delivery d =
                new Delivery(
                    "d-" + UUID.randomUUID(),
                    "issues",
                    "opened",
                    repo,
                    Instant.now(),
                    DeliverySource.WEBHOOK,
                    payload);
            String key =
                DeliveryKey.of(
                    "issues", new com.fasterxml.jackson.databind.ObjectMapper().readTree(payload));
            producer
                .send(
                    new ProducerRecord<>(
                        Topic.DELIVERIES.topicName(), key, AvroCodec.deliveries().encode(d)))
                .get();
          }
        }
        Poll.until(
            Duration.ofSeconds(90),
            () -> {
              try (var s = driver.session(SessionConfig.forDatabase("neo4j"))) {
                return s.run(
                        "MATCH (i:Issue) WHERE i.id STARTS WITH $r RETURN count(i) AS n",
                        Map.of("r", repo + "#"))
                    .single()
                    .get("n")
                    .asLong();
              }
            },
            issues -> issues == 5,
            issues -> "5 issues in the graph, found " + issues);
      }
    }
  }

  private static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | Error e) {
      return false;
    }
  }

  /** The pinned image tags: the compose file's .env, the one place they are kept. */
  static Map<String, String> images(Path env) throws IOException {
    Map<String, String> images = new java.util.HashMap<>();
    for (String line : Files.readAllLines(env)) {
      int eq = line.indexOf('=');
      if (!line.startsWith("#") && eq > 0) {
        images.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
      }
    }
    for (String k : List.of("KAFKA_IMAGE", "NEO4J_IMAGE", "FLINK_IMAGE")) {
      if (!images.containsKey(k)) {
        throw new IllegalStateException(k + " is not pinned in " + env);
      }
    }
    return images;
  }
}
