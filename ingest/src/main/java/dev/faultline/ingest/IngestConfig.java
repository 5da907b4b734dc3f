package dev.faultline.ingest;

import dev.faultline.schemas.Topic;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Everything the webhook receiver needs, parsed once and passed down. Immutable; secrets are masked
 * in {@link #toString()}.
 *
 * @param secrets webhook secrets; a signature made with any of them is accepted (several for
 *     rotation). May be empty only in local mode, where unsigned deliveries are then accepted.
 * @param localMode local single-machine mode (loopback only); the only mode that may run without a
 *     secret
 * @param maxBodyBytes largest accepted request body; GitHub caps payloads at 25 MB
 * @param maxHeaderBytes largest accepted request header block
 * @param bootstrapServers Kafka bootstrap servers
 * @param producerProperties extra Kafka producer properties (security: {@code
 *     security.protocol=SASL_SSL}, {@code sasl.jaas.config}, …), applied over the defaults
 * @param deliveryTopic the raw delivery topic
 * @param spoolDir directory of the local spool used while Kafka is unreachable
 * @param dedupeCapacity how many recent delivery ids the receiver remembers to drop redeliveries
 * @param maxDeliveryAge deliveries whose payload timestamp is older than this are acknowledged but
 *     not published again (replays); {@link Duration#ZERO} disables the check
 * @param handoffTimeout how long a delivery may wait for Kafka before it is spooled instead
 * @param idleTimeout HTTP connection idle timeout (slow clients are cut off)
 * @param shutdownTimeout how long a graceful stop waits for in-flight requests
 */
public record IngestConfig(
    List<String> secrets,
    boolean localMode,
    long maxBodyBytes,
    int maxHeaderBytes,
    String bootstrapServers,
    Map<String, String> producerProperties,
    String deliveryTopic,
    Path spoolDir,
    int dedupeCapacity,
    Duration maxDeliveryAge,
    Duration handoffTimeout,
    Duration idleTimeout,
    Duration shutdownTimeout) {

  /** GitHub does not deliver payloads over 25 MB. */
  public static final long DEFAULT_MAX_BODY_BYTES = 25L * 1024 * 1024;

  public static final int DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
  public static final String DEFAULT_BOOTSTRAP_SERVERS = "127.0.0.1:9092";
  public static final int DEFAULT_DEDUPE_CAPACITY = 100_000;

  /**
   * GitHub keeps deliveries for manual redelivery 3 days (GHES: 7); older "redeliveries" are
   * replays.
   */
  public static final Duration DEFAULT_MAX_DELIVERY_AGE = Duration.ofDays(7);

  /**
   * GitHub wants a 2xx within 10 s; half of it waits for Kafka, the rest is margin for the spool.
   */
  public static final Duration DEFAULT_HANDOFF_TIMEOUT = Duration.ofSeconds(5);

  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(20);

  /** Environment variable names read by {@link #fromEnvironment}. */
  public static final String ENV_SECRET = "FAULTLINE_WEBHOOK_SECRET";

  public static final String ENV_PREVIOUS_SECRET = "FAULTLINE_WEBHOOK_SECRET_PREVIOUS";
  public static final String ENV_MAX_BODY_BYTES = "FAULTLINE_WEBHOOK_MAX_BODY_BYTES";
  public static final String ENV_BOOTSTRAP_SERVERS = "FAULTLINE_KAFKA_BOOTSTRAP_SERVERS";
  public static final String ENV_PRODUCER_PREFIX = "FAULTLINE_KAFKA_PRODUCER_";
  public static final String ENV_DELIVERY_TOPIC = "FAULTLINE_DELIVERY_TOPIC";
  public static final String ENV_SPOOL_DIR = "FAULTLINE_SPOOL_DIR";
  public static final String ENV_DEDUPE_CAPACITY = "FAULTLINE_WEBHOOK_DEDUPE_CAPACITY";
  public static final String ENV_MAX_DELIVERY_AGE = "FAULTLINE_WEBHOOK_MAX_DELIVERY_AGE";
  public static final String ENV_HANDOFF_TIMEOUT = "FAULTLINE_WEBHOOK_HANDOFF_TIMEOUT";

  private static final String MASK = "****";

  public IngestConfig {
    secrets = List.copyOf(Objects.requireNonNull(secrets, "secrets"));
    producerProperties =
        Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(producerProperties)));
    for (String secret : secrets) {
      if (secret == null || secret.isBlank()) {
        throw new IllegalArgumentException(
            "A webhook secret is blank: set "
                + ENV_SECRET
                + " to the secret configured on the GitHub webhook.");
      }
    }
    if (secrets.isEmpty() && !localMode) {
      throw new IllegalArgumentException(
          "No webhook secret: set "
              + ENV_SECRET
              + " to the secret configured on the GitHub webhook (the receiver accepts unsigned deliveries only in"
              + " local mode).");
    }
    if (maxBodyBytes <= 0) {
      throw new IllegalArgumentException(
          "maxBodyBytes must be positive (" + ENV_MAX_BODY_BYTES + "), was " + maxBodyBytes);
    }
    if (maxHeaderBytes < 1024) {
      throw new IllegalArgumentException(
          "maxHeaderBytes must be at least 1024, was " + maxHeaderBytes);
    }
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException(
          "No Kafka bootstrap servers: set "
              + ENV_BOOTSTRAP_SERVERS
              + " to host:port[,host:port…].");
    }
    if (deliveryTopic == null || deliveryTopic.isBlank()) {
      throw new IllegalArgumentException(
          "deliveryTopic is blank: set " + ENV_DELIVERY_TOPIC + " or leave it unset.");
    }
    Objects.requireNonNull(spoolDir, "spoolDir: set " + ENV_SPOOL_DIR + " to a writable directory");
    if (dedupeCapacity < 0) {
      throw new IllegalArgumentException(
          "dedupeCapacity must be 0 (off) or positive ("
              + ENV_DEDUPE_CAPACITY
              + "), was "
              + dedupeCapacity);
    }
    requireNonNegative(maxDeliveryAge, "maxDeliveryAge", ENV_MAX_DELIVERY_AGE);
    requirePositive(handoffTimeout, "handoffTimeout", ENV_HANDOFF_TIMEOUT);
    requirePositive(idleTimeout, "idleTimeout", "");
    requirePositive(shutdownTimeout, "shutdownTimeout", "");
  }

  private static void requireNonNegative(Duration d, String name, String env) {
    if (d == null || d.isNegative()) {
      throw new IllegalArgumentException(
          name
              + " must be zero or positive"
              + (env.isEmpty() ? "" : " (" + env + ", e.g. P7D or PT12H)"));
    }
  }

  private static void requirePositive(Duration d, String name, String env) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(
          name + " must be positive" + (env.isEmpty() ? "" : " (" + env + ", e.g. PT5S)"));
    }
  }

  /** Defaults for everything but the secrets, Kafka and the spool directory. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.secrets = new ArrayList<>(secrets);
    b.localMode = localMode;
    b.maxBodyBytes = maxBodyBytes;
    b.maxHeaderBytes = maxHeaderBytes;
    b.bootstrapServers = bootstrapServers;
    b.producerProperties = new TreeMap<>(producerProperties);
    b.deliveryTopic = deliveryTopic;
    b.spoolDir = spoolDir;
    b.dedupeCapacity = dedupeCapacity;
    b.maxDeliveryAge = maxDeliveryAge;
    b.handoffTimeout = handoffTimeout;
    b.idleTimeout = idleTimeout;
    b.shutdownTimeout = shutdownTimeout;
    return b;
  }

  /**
   * Reads the configuration from environment variables.
   *
   * <ul>
   *   <li>{@value #ENV_SECRET} (required outside local mode), {@value #ENV_PREVIOUS_SECRET}
   *       (optional, rotation)
   *   <li>{@value #ENV_BOOTSTRAP_SERVERS} (default {@value #DEFAULT_BOOTSTRAP_SERVERS}); every
   *       {@value #ENV_PRODUCER_PREFIX}{@code X_Y} becomes the producer property {@code x.y}
   *   <li>{@value #ENV_DELIVERY_TOPIC}, {@value #ENV_SPOOL_DIR} (default {@code dataDir/spool}),
   *       {@value #ENV_MAX_BODY_BYTES}, {@value #ENV_DEDUPE_CAPACITY}, {@value
   *       #ENV_MAX_DELIVERY_AGE} and {@value #ENV_HANDOFF_TIMEOUT} (ISO-8601 durations such as
   *       {@code P7D}, {@code PT5S})
   * </ul>
   *
   * @param localMode whether the receiver runs in local mode (the launcher knows)
   * @param dataDir the data directory; the spool goes below it unless {@value #ENV_SPOOL_DIR} is
   *     set
   * @throws IllegalArgumentException naming the variable to fix
   */
  public static IngestConfig fromEnvironment(
      Map<String, String> env, boolean localMode, Path dataDir) {
    Builder b = builder().localMode(localMode);
    List<String> secrets = new ArrayList<>();
    for (String name : List.of(ENV_SECRET, ENV_PREVIOUS_SECRET)) {
      String value = env.get(name);
      if (value != null && !value.isEmpty()) {
        secrets.add(value);
      }
    }
    b.secrets(secrets);
    b.bootstrapServers(env.getOrDefault(ENV_BOOTSTRAP_SERVERS, DEFAULT_BOOTSTRAP_SERVERS).trim());
    b.producerProperties(producerPropertiesFromEnvironment(env));
    b.deliveryTopic(env.getOrDefault(ENV_DELIVERY_TOPIC, Topic.DELIVERIES.topicName()));
    String spool = env.get(ENV_SPOOL_DIR);
    b.spoolDir(spool != null && !spool.isBlank() ? Path.of(spool) : dataDir.resolve("spool"));
    if (env.containsKey(ENV_MAX_BODY_BYTES)) {
      b.maxBodyBytes(parseLong(env, ENV_MAX_BODY_BYTES));
    }
    if (env.containsKey(ENV_DEDUPE_CAPACITY)) {
      b.dedupeCapacity((int) parseLong(env, ENV_DEDUPE_CAPACITY));
    }
    if (env.containsKey(ENV_MAX_DELIVERY_AGE)) {
      b.maxDeliveryAge(parseDuration(env, ENV_MAX_DELIVERY_AGE));
    }
    if (env.containsKey(ENV_HANDOFF_TIMEOUT)) {
      b.handoffTimeout(parseDuration(env, ENV_HANDOFF_TIMEOUT));
    }
    return b.build();
  }

  /**
   * Every {@value #ENV_PRODUCER_PREFIX}{@code X_Y} variable as the producer property {@code x.y}.
   */
  public static Map<String, String> producerPropertiesFromEnvironment(Map<String, String> env) {
    Map<String, String> producer = new TreeMap<>();
    env.forEach(
        (k, v) -> {
          if (k.startsWith(ENV_PRODUCER_PREFIX) && k.length() > ENV_PRODUCER_PREFIX.length()) {
            producer.put(
                k.substring(ENV_PRODUCER_PREFIX.length())
                    .toLowerCase(Locale.ROOT)
                    .replace('_', '.'),
                v);
          }
        });
    return producer;
  }

  private static long parseLong(Map<String, String> env, String name) {
    try {
      return Long.parseLong(env.get(name).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          name + " must be a whole number, was '" + env.get(name) + "'", e);
    }
  }

  private static Duration parseDuration(Map<String, String> env, String name) {
    try {
      return Duration.parse(env.get(name).trim());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          name + " must be an ISO-8601 duration such as PT5S or P7D, was '" + env.get(name) + "'",
          e);
    }
  }

  /** True when the receiver checks signatures (always, except local mode without a secret). */
  public boolean verifiesSignatures() {
    return !secrets.isEmpty();
  }

  @Override
  public String toString() {
    Map<String, String> maskedProducer = new TreeMap<>();
    producerProperties.forEach((k, v) -> maskedProducer.put(k, isSecretProperty(k) ? MASK : v));
    return "IngestConfig[secrets="
        + (secrets.isEmpty()
            ? "[]"
            : "[" + String.join(", ", Collections.nCopies(secrets.size(), MASK)) + "]")
        + ", localMode="
        + localMode
        + ", maxBodyBytes="
        + maxBodyBytes
        + ", maxHeaderBytes="
        + maxHeaderBytes
        + ", bootstrapServers="
        + bootstrapServers
        + ", producerProperties="
        + maskedProducer
        + ", deliveryTopic="
        + deliveryTopic
        + ", spoolDir="
        + spoolDir
        + ", dedupeCapacity="
        + dedupeCapacity
        + ", maxDeliveryAge="
        + maxDeliveryAge
        + ", handoffTimeout="
        + handoffTimeout
        + ", idleTimeout="
        + idleTimeout
        + ", shutdownTimeout="
        + shutdownTimeout
        + "]";
  }

  static boolean isSecretProperty(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.contains("password")
        || k.contains("jaas")
        || k.contains("secret")
        || k.contains("token")
        || k.endsWith(".key")
        || k.contains("credentials");
  }

  /** Builder with the defaults above. */
  public static final class Builder {
    private List<String> secrets = new ArrayList<>();
    private boolean localMode;
    private long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private int maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES;
    private String bootstrapServers = DEFAULT_BOOTSTRAP_SERVERS;
    private Map<String, String> producerProperties = new TreeMap<>();
    private String deliveryTopic = Topic.DELIVERIES.topicName();
    private Path spoolDir = Path.of(".faultline", "spool");
    private int dedupeCapacity = DEFAULT_DEDUPE_CAPACITY;
    private Duration maxDeliveryAge = DEFAULT_MAX_DELIVERY_AGE;
    private Duration handoffTimeout = DEFAULT_HANDOFF_TIMEOUT;
    private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
    private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;

    private Builder() {}

    public Builder secrets(List<String> v) {
      secrets = new ArrayList<>(v);
      return this;
    }

    public Builder secret(String v) {
      return secrets(List.of(v));
    }

    public Builder localMode(boolean v) {
      localMode = v;
      return this;
    }

    public Builder maxBodyBytes(long v) {
      maxBodyBytes = v;
      return this;
    }

    public Builder maxHeaderBytes(int v) {
      maxHeaderBytes = v;
      return this;
    }

    public Builder bootstrapServers(String v) {
      bootstrapServers = v;
      return this;
    }

    public Builder producerProperties(Map<String, String> v) {
      producerProperties = new TreeMap<>(v);
      return this;
    }

    public Builder deliveryTopic(String v) {
      deliveryTopic = v;
      return this;
    }

    public Builder spoolDir(Path v) {
      spoolDir = v;
      return this;
    }

    public Builder dedupeCapacity(int v) {
      dedupeCapacity = v;
      return this;
    }

    public Builder maxDeliveryAge(Duration v) {
      maxDeliveryAge = v;
      return this;
    }

    public Builder handoffTimeout(Duration v) {
      handoffTimeout = v;
      return this;
    }

    public Builder idleTimeout(Duration v) {
      idleTimeout = v;
      return this;
    }

    public Builder shutdownTimeout(Duration v) {
      shutdownTimeout = v;
      return this;
    }

    public IngestConfig build() {
      return new IngestConfig(
          secrets,
          localMode,
          maxBodyBytes,
          maxHeaderBytes,
          bootstrapServers,
          producerProperties,
          deliveryTopic,
          spoolDir,
          dedupeCapacity,
          maxDeliveryAge,
          handoffTimeout,
          idleTimeout,
          shutdownTimeout);
    }
  }
}
