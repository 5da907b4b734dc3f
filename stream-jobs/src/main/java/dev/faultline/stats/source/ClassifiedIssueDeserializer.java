package dev.faultline.stats.source;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.jobs.common.Rejected;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.ClassifiedRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes {@code faultline.issues.classified} values into {@link ClassifiedEvent} POJOs right at
 * the source, so no Avro class travels between operators. A value that does not decode is not a
 * reason to stop: it comes out as a {@link Rejected} record (stage {@value #STAGE}, the decoder's
 * error as the reason, the original bytes), logged with its position and counted ({@code
 * unreadableClassifiedRecords}); the job sends it to the dead-letter topic.
 */
public final class ClassifiedIssueDeserializer
    implements KafkaRecordDeserializationSchema<ClassifiedRecord> {
  /** The dead letters' stage. */
  public static final String STAGE = "category-stats/decode";

  private static final Logger LOG = LoggerFactory.getLogger(ClassifiedIssueDeserializer.class);
  private final ConfidencePolicy confidence;
  private transient AvroCodec<ClassifiedIssue> codec;
  private transient Counter unreadable;

  /** Counts every label whatever its confidence. */
  public ClassifiedIssueDeserializer() {
    this(ConfidencePolicy.all());
  }

  /** Counts only labels that pass the policy's bars (the others as UNKNOWN). */
  public ClassifiedIssueDeserializer(ConfidencePolicy confidence) {
    this.confidence = confidence;
  }

  @Override
  public void open(DeserializationSchema.InitializationContext context) {
    codec = AvroCodec.classifiedIssues();
    unreadable = context.getMetricGroup().counter("unreadableClassifiedRecords");
  }

  @Override
  public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<ClassifiedRecord> out) {
    if (codec == null) {
      codec = AvroCodec.classifiedIssues();
    }
    ClassifiedEvent event;
    try {
      event = ClassifiedEvent.fromAvro(codec.decode(record.value()), confidence);
    } catch (IOException | RuntimeException e) {
      if (unreadable != null) {
        unreadable.inc();
      }
      String where = record.topic() + "-" + record.partition() + " offset " + record.offset();
      LOG.warn(
          "Unreadable classified record at {}, sent to the dead-letter topic: {}",
          where,
          e.toString());
      String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
      out.collect(
          ClassifiedRecord.rejected(
              new Rejected(
                  STAGE,
                  "undecodable ClassifiedIssue at " + where + ": " + e,
                  key,
                  null,
                  record.value(),
                  System.currentTimeMillis())));
      return;
    }
    out.collect(ClassifiedRecord.of(event));
  }

  @Override
  public TypeInformation<ClassifiedRecord> getProducedType() {
    return TypeInformation.of(ClassifiedRecord.class);
  }
}
