package dev.faultline.schemas;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Where Kafka is and how to reach it, beside the {@link Topic}s: the bootstrap servers and the
 * extra client properties of a deployment (security: {@code security.protocol}, {@code sasl.*},
 * {@code ssl.*}). Immutable and serialisable (Flink ships it to the tasks); secret values are
 * masked in {@link #toString()}.
 *
 * @param bootstrap Kafka bootstrap servers, {@code HOST:PORT[,HOST:PORT...]}
 * @param properties extra Kafka client properties (none: empty)
 */
public record KafkaSettings(String bootstrap, Map<String, String> properties)
    implements Serializable {

  /** The environment variable naming the bootstrap servers. */
  public static final String ENV_BOOTSTRAP = "FAULTLINE_KAFKA_BOOTSTRAP_SERVERS";

  /** The local stack's broker, the default where nothing else is given. */
  public static final String LOCAL_BOOTSTRAP = "127.0.0.1:9092";

  public KafkaSettings {
    if (bootstrap == null || bootstrap.isBlank()) {
      throw new IllegalArgumentException(
          "Kafka bootstrap servers are empty: pass --kafka-bootstrap HOST:PORT or set "
              + ENV_BOOTSTRAP);
    }
    properties = Map.copyOf(properties == null ? Map.of() : properties);
  }

  /** These bootstrap servers, no extra properties. */
  public static KafkaSettings of(String bootstrap) {
    return new KafkaSettings(bootstrap, Map.of());
  }

  /**
   * The bootstrap servers given (a flag; null: not given), else {@value #ENV_BOOTSTRAP} of {@code
   * env}, else the local broker; with {@code properties}.
   */
  public static KafkaSettings of(
      String bootstrap, Map<String, String> properties, Map<String, String> env) {
    return new KafkaSettings(
        bootstrap != null ? bootstrap : env.getOrDefault(ENV_BOOTSTRAP, LOCAL_BOOTSTRAP),
        properties);
  }

  /** Kafka client properties: the extra ones and {@code bootstrap.servers}; a fresh copy. */
  public Properties clientProperties() {
    Properties p = new Properties();
    p.putAll(properties);
    p.put("bootstrap.servers", bootstrap);
    return p;
  }

  @Override
  public String toString() {
    Map<String, String> shown = new TreeMap<>();
    properties.forEach((k, v) -> shown.put(k, secret(k) ? "****" : v));
    return "KafkaSettings{bootstrap=" + bootstrap + ", properties=" + shown + "}";
  }

  private static boolean secret(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.contains("password") || k.contains("jaas") || k.contains("secret");
  }
}
