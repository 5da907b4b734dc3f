package dev.faultline.ingest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The receiver's own check: the spool can be written and is not piling up beyond {@code maxDepth}.
 * Its depth is shown in {@code /health} either way; a non-empty spool alone is not a problem (the
 * receiver still accepts deliveries durably; the Kafka check says why it is filling).
 */
public final class SpoolHealthCheck implements HealthCheck {
  public static final long DEFAULT_MAX_DEPTH = 100_000;

  private final SpoolingPublisher publisher;
  private final long maxDepth;

  public SpoolHealthCheck(SpoolingPublisher publisher, long maxDepth) {
    this.publisher = publisher;
    this.maxDepth = maxDepth;
  }

  @Override
  public String name() {
    return "spool";
  }

  @Override
  public Optional<String> problem() {
    Optional<String> write = publisher.writeProblem();
    if (write.isPresent()) {
      return Optional.of(
          write.get() + "; check that the spool directory is writable and the disk not full");
    }
    long depth = publisher.depth();
    if (depth > maxDepth) {
      return Optional.of(
          depth
              + " deliveries wait in the spool (limit "
              + maxDepth
              + "); Kafka has not taken deliveries since "
              + publisher.spoolingSince().map(Object::toString).orElse("?")
              + ": bring Kafka back, the spool drains by itself");
    }
    return Optional.empty();
  }

  @Override
  public Map<String, Object> details() {
    Map<String, Object> d = new LinkedHashMap<>();
    d.put("depth", publisher.depth());
    d.put("spooling", publisher.isSpooling());
    publisher.spoolingSince().ifPresent(s -> d.put("spoolingSince", s.toString()));
    return d;
  }
}
