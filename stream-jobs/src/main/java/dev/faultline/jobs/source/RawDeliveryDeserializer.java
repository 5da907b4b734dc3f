package dev.faultline.jobs.source;

import dev.faultline.jobs.records.RawDelivery;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Keeps the record whole; decoding happens in an operator that can dead-letter what it cannot read.
 */
public final class RawDeliveryDeserializer
    implements KafkaRecordDeserializationSchema<RawDelivery> {
  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawDelivery> out) {
    String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
    out.collect(
        new RawDelivery(
            key,
            record.value() == null ? new byte[0] : record.value(),
            record.topic(),
            record.partition(),
            record.offset()));
  }

  @Override
  public TypeInformation<RawDelivery> getProducedType() {
    return TypeInformation.of(RawDelivery.class);
  }
}
