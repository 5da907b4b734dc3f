package dev.faultline.ingest;

/** Where a delivery went when its hand-off completed. Both are durable. */
public enum Handoff {
  /** Kafka acknowledged it ({@code acks=all}). */
  ACKNOWLEDGED,
  /** Kafka was away; it is fsynced in the local spool, which drains to Kafka. */
  SPOOLED
}
