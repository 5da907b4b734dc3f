package dev.faultline.jobs.common;

import dev.faultline.graph.GraphConfig;
import dev.faultline.schemas.KafkaSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code --name value} arguments of a job's {@code main}, read once at the edge: named values
 * (typed by the getters below, each error naming its flag), and {@code --kafka.X value} pairs that
 * pass Kafka client property X through (security settings, for instance). Shared by every job's
 * config.
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
   * The job's I/O: {@code --kafka-bootstrap} (else FAULTLINE_KAFKA_BOOTSTRAP_SERVERS, else the
   * local broker) with the {@code --kafka.X} properties, {@code --group-id}, {@code
   * --neo4j-uri/-user/-password/-database} (else the FAULTLINE_NEO4J_* environment), {@code
   * --sink-batch-size}, {@code --sink-flush-ms}, {@code --checkpoint-interval-ms}, {@code
   * --checkpoint-dir} (else FAULTLINE_CHECKPOINT_DIR) and {@code --parallelism}; what is not given
   * is {@code defaults}' (whose Kafka and graph are not read).
   */
  public JobIo io(Map<String, String> env, JobIo.Defaults defaults) {
    SinkOptions sink =
        new SinkOptions(
            integer("sink-batch-size", SinkOptions.DEFAULTS.batchSize()),
            Duration.ofMillis(
                whole("sink-flush-ms", SinkOptions.DEFAULTS.flushInterval().toMillis())),
            SinkOptions.DEFAULTS.maxBackoff());
    return new JobIo(
        KafkaSettings.of(named.get("kafka-bootstrap"), kafka, env),
        get("group-id", defaults.groupId()),
        graph(env),
        sink,
        new JobIo.Checkpoints(
            Duration.ofMillis(
                whole("checkpoint-interval-ms", defaults.checkpointInterval().toMillis())),
            get("checkpoint-dir", env.get(JobIo.ENV_CHECKPOINT_DIR))),
        integer("parallelism", 0));
  }

  /**
   * Neo4j from {@code --neo4j-uri/-user/-password/-database}, else the FAULTLINE_NEO4J_*
   * environment.
   */
  public GraphConfig graph(Map<String, String> env) {
    return GraphConfig.of(
        named.get("neo4j-uri"),
        named.get("neo4j-user"),
        named.get("neo4j-password"),
        named.get("neo4j-database"),
        env);
  }

  /** {@code --name N}, a whole number. */
  public int integer(String name, int fallback) {
    return (int) whole(name, fallback);
  }

  /** {@code --name N}, a whole number. */
  public long whole(String name, long fallback) {
    String v = named.get(name);
    try {
      return v == null ? fallback : Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " '" + v + "' is not a whole number");
    }
  }

  /** {@code --name X}, a number. */
  public double decimal(String name, double fallback) {
    String v = named.get(name);
    try {
      return v == null ? fallback : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " '" + v + "' is not a number");
    }
  }

  /** {@code --name true|false}, strictly. */
  public boolean bool(String name, boolean fallback) {
    String v = named.get(name);
    if (v == null) {
      return fallback;
    }
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException("--" + name + " '" + v + "' is not true or false");
    }
    return Boolean.parseBoolean(v);
  }

  /** {@code --name P7D}, an ISO-8601 duration. */
  public Duration duration(String name, Duration fallback) {
    String v = named.get(name);
    return v == null ? fallback : duration(name, v);
  }

  /** {@code value} of {@code --name} as an ISO-8601 duration. */
  public static Duration duration(String name, String value) {
    try {
      return Duration.parse(value);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "--"
              + name
              + " '"
              + value
              + "' is not an ISO-8601 duration: write e.g. P7D, PT6H or PT1M");
    }
  }

  /** {@code --name P7D}, a duration of whole days, as days. */
  public int days(String name, int fallback) {
    Duration d = duration(name, Duration.ofDays(fallback));
    if (d.toMillis() % Duration.ofDays(1).toMillis() != 0) {
      throw new IllegalArgumentException(
          "--" + name + " " + d + " is not whole days: write e.g. P7D");
    }
    return (int) d.toDays();
  }
}
