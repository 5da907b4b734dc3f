package dev.faultline.jobs.common;

/** A record a job gave up on, with the reason; written to the dead-letter topic. */
public class Rejected {
  public String stage;
  public String reason;
  public String key;
  public String deliveryId;
  public byte[] payload;
  public long failedAt;

  public Rejected() {}

  public Rejected(
      String stage, String reason, String key, String deliveryId, byte[] payload, long failedAt) {
    this.stage = stage;
    this.reason = reason;
    this.key = key;
    this.deliveryId = deliveryId;
    this.payload = payload;
    this.failedAt = failedAt;
  }
}
