package dev.faultline.schemas;

import java.util.Map;

/**
 * Every Kafka topic of the system, in one place. Names are the contract between modules and
 * deployments.
 */
public enum Topic {
  /**
   * Raw deliveries (webhook and backfill), {@link Delivery} values keyed {@code owner/repo#number}.
   * The system of record.
   */
  DELIVERIES("faultline.deliveries"),
  /** Classified issues, keyed by issue id. */
  ISSUES_CLASSIFIED("faultline.issues.classified"),
  /** Rolling category statistics. */
  STATS("faultline.stats"),
  /** Emerging-category alerts. */
  ALERTS("faultline.alerts"),
  /** {@link DeadLetter} records: what a job could not process, with the reason. */
  DEAD_LETTER("faultline.deadletter"),
  /**
   * The stream's cache of validated language-model answers (issue #19): JSON values keyed by the
   * answer's cache key (SHA-256 of prompt version, model and item content). Compacted: the newest
   * answer of a key is kept forever.
   */
  LLM_ANSWERS("faultline.llm-answers", Map.of("cleanup.policy", "compact"));

  private final String topicName;
  private final Map<String, String> configs;

  Topic(String topicName) {
    this(topicName, Map.of());
  }

  Topic(String topicName, Map<String, String> configs) {
    this.topicName = topicName;
    this.configs = configs;
  }

  /**
   * Topic configuration the topic must be created with (e.g. {@code cleanup.policy}); empty for the
   * defaults.
   */
  public Map<String, String> configs() {
    return configs;
  }

  /** The Kafka topic name. */
  public String topicName() {
    return topicName;
  }
}
