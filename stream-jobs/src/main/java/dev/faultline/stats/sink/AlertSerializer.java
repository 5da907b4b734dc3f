package dev.faultline.stats.sink;

import dev.faultline.schemas.Alert;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.stats.records.StatAlert;
import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/** {@link StatAlert} as an Avro {@link Alert} value keyed by its episode id. */
public final class AlertSerializer implements KafkaRecordSerializationSchema<StatAlert> {
  private final String topic;
  private transient AvroCodec<Alert> codec;

  public AlertSerializer(String topic) {
    this.topic = topic;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      StatAlert alert, KafkaSinkContext context, Long timestamp) {
    if (codec == null) {
      codec = AvroCodec.of(new Alert());
    }
    return new ProducerRecord<>(
        topic, null, alert.id.getBytes(StandardCharsets.UTF_8), codec.encode(alert.toAvro()));
  }
}
