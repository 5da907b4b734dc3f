package dev.faultline.jobs;

import dev.faultline.graph.GraphConfig;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code --name value} arguments of a job's {@code main}: named values, and {@code --kafka.X
 * value} pairs that pass Kafka client property X through (security settings, for instance). Shared
 * by every job's config.
 *
 * @param named values by name, without the leading dashes
 * @param kafka Kafka client properties
 */
public record JobArgs(Map<String, String> named, Map<String, String> kafka) {
  public static JobArgs parse(String[] args) {
    Map<String, String> named = new HashMap<>();
    Map<String, String> kafka = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (!name.startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("Expected --name value pairs, got '" + name + "'");
      }
      String value = args[++i];
      if (name.startsWith("--kafka.")) {
        kafka.put(name.substring("--kafka.".length()), value);
      } else {
        named.put(name.substring(2), value);
      }
    }
    return new JobArgs(Map.copyOf(named), Map.copyOf(kafka));
  }

  public String get(String name, String fallback) {
    return named.getOrDefault(name, fallback);
  }

  /**
   * Kafka bootstrap servers: {@code --kafka-bootstrap}, else FAULTLINE_KAFKA_BOOTSTRAP_SERVERS,
   * else the local broker.
   */
  public String kafkaBootstrap(Map<String, String> env) {
    return named.getOrDefault(
        "kafka-bootstrap", env.getOrDefault("FAULTLINE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092"));
  }

  /**
   * Neo4j from {@code --neo4j-uri/-user/-password/-database}, else the FAULTLINE_NEO4J_*
   * environment.
   */
  public GraphConfig graph(Map<String, String> env) {
    Map<String, String> graphEnv = new HashMap<>(env);
    putIfPresent(graphEnv, "FAULTLINE_NEO4J_URI", named.get("neo4j-uri"));
    putIfPresent(graphEnv, "FAULTLINE_NEO4J_USER", named.get("neo4j-user"));
    putIfPresent(graphEnv, "FAULTLINE_NEO4J_PASSWORD", named.get("neo4j-password"));
    putIfPresent(graphEnv, "FAULTLINE_NEO4J_DATABASE", named.get("neo4j-database"));
    return GraphConfig.fromEnvironment(graphEnv);
  }

  private static void putIfPresent(Map<String, String> m, String k, String v) {
    if (v != null) {
      m.put(k, v);
    }
  }
}
