package dev.faultline.jobs.common;

import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.DeadLetter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes {@link Rejected} records as Avro {@link DeadLetter} values, keyed as the original record
 * was.
 */
public final class DeadLetterSerializer implements KafkaRecordSerializationSchema<Rejected> {
  private final String topic;
  private transient AvroCodec<DeadLetter> codec;

  public DeadLetterSerializer(String topic) {
    this.topic = topic;
  }

  public static DeadLetter toAvro(Rejected r) {
    return DeadLetter.newBuilder()
        .setStage(r.stage)
        .setReason(r.reason == null ? "unknown" : r.reason)
        .setKey(r.key)
        .setDeliveryId(r.deliveryId)
        .setPayload(r.payload == null ? null : ByteBuffer.wrap(r.payload))
        .setFailedAt(Instant.ofEpochMilli(r.failedAt))
        .build();
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      Rejected element, KafkaSinkContext context, Long timestamp) {
    if (codec == null) {
      codec = AvroCodec.deadLetters();
    }
    byte[] key = element.key == null ? null : element.key.getBytes(StandardCharsets.UTF_8);
    return new ProducerRecord<>(topic, null, key, codec.encode(toAvro(element)));
  }
}
