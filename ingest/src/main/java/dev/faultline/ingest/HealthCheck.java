package dev.faultline.ingest;

import java.util.Map;
import java.util.Optional;

/**
 * One thing {@code GET /health} checks. Implementations answer quickly (well under a second) and
 * never throw.
 */
public interface HealthCheck {

  /** Short stable name, e.g. {@code kafka}, {@code neo4j}, {@code spool}. */
  String name();

  /** Empty when healthy, else what is wrong in words an operator can act on. */
  Optional<String> problem();

  /** Extra facts shown in {@code /health} whatever the state, e.g. the spool depth. */
  default Map<String, Object> details() {
    return Map.of();
  }
}
