package dev.faultline.jobs.stats.source;

import dev.faultline.jobs.stats.records.ClassifiedEvent;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.ClassifiedIssue;
import java.io.IOException;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes {@code faultline.issues.classified} values into {@link ClassifiedEvent} POJOs right at the source, so no
 * Avro class travels between operators. The topic is written by our own issue pipeline; a value that does not decode
 * is skipped, logged with its position and counted ({@code unreadableClassifiedRecords}), not a reason to stop.
 */
public final class ClassifiedIssueDeserializer implements KafkaRecordDeserializationSchema<ClassifiedEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(ClassifiedIssueDeserializer.class);
  private transient AvroCodec<ClassifiedIssue> codec;
  private transient Counter unreadable;

  @Override
  public void open(DeserializationSchema.InitializationContext context) {
    codec = AvroCodec.classifiedIssues();
    unreadable = context.getMetricGroup().counter("unreadableClassifiedRecords");
  }

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<ClassifiedEvent> out) {
    if (codec == null) {
      codec = AvroCodec.classifiedIssues();
    }
    try {
      out.collect(ClassifiedEvent.fromAvro(codec.decode(record.value())));
    } catch (IOException | RuntimeException e) {
      if (unreadable != null) {
        unreadable.inc();
      }
      LOG.warn("Skipping unreadable classified record at {}-{} offset {}: {}", record.topic(), record.partition(), record.offset(), e.toString());
    }
  }

  @Override
  public TypeInformation<ClassifiedEvent> getProducedType() {
    return TypeInformation.of(ClassifiedEvent.class);
  }
}
