package dev.faultline.schemas;

/** Every Kafka topic of the system, in one place. Names are the contract between modules and deployments. */
public enum Topic {
  /** Raw deliveries (webhook and backfill), {@link Delivery} values keyed {@code owner/repo#number}. The system of record. */
  DELIVERIES("faultline.deliveries"),
  /** Classified issues, keyed by issue id. */
  ISSUES_CLASSIFIED("faultline.issues.classified"),
  /** Rolling category statistics. */
  STATS("faultline.stats"),
  /** Emerging-category alerts. */
  ALERTS("faultline.alerts"),
  /** {@link DeadLetter} records: what a job could not process, with the reason. */
  DEAD_LETTER("faultline.deadletter");

  private final String topicName;

  Topic(String topicName) {
    this.topicName = topicName;
  }

  /** The Kafka topic name. */
  public String topicName() {
    return topicName;
  }
}
