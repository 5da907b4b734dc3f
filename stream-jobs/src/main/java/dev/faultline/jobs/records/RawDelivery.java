package dev.faultline.jobs.records;

/**
 * A Kafka record of the delivery topic as it arrived, before decoding (so a poison record can be
 * dead-lettered whole).
 */
public class RawDelivery {
  public String key;
  public byte[] value;
  public String topic;
  public int partition;
  public long offset;

  public RawDelivery() {}

  public RawDelivery(String key, byte[] value, String topic, int partition, long offset) {
    this.key = key;
    this.value = value;
    this.topic = topic;
    this.partition = partition;
    this.offset = offset;
  }
}
