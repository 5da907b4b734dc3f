package dev.faultline.stats.sink;

import dev.faultline.schemas.AvroCodec;
import dev.faultline.stats.records.CategoryStat;
import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@link CategoryStat} as an Avro {@code dev.faultline.schemas.CategoryStat} value keyed by its id
 * (compactable).
 */
public final class CategoryStatSerializer implements KafkaRecordSerializationSchema<CategoryStat> {
  private final String topic;
  private transient AvroCodec<dev.faultline.schemas.CategoryStat> codec;

  public CategoryStatSerializer(String topic) {
    this.topic = topic;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      CategoryStat stat, KafkaSinkContext context, Long timestamp) {
    if (codec == null) {
      codec = AvroCodec.of(new dev.faultline.schemas.CategoryStat());
    }
    return new ProducerRecord<>(
        topic, null, stat.id.getBytes(StandardCharsets.UTF_8), codec.encode(stat.toAvro()));
  }
}
