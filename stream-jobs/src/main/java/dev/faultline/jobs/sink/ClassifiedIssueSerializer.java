package dev.faultline.jobs.sink;

import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.ClassifiedIssue;
import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Writes classified issues as Avro {@link ClassifiedIssue} values keyed by issue id. */
public final class ClassifiedIssueSerializer
    implements KafkaRecordSerializationSchema<ClassifiedIssueEvent> {
  private final String topic;
  private transient AvroCodec<ClassifiedIssue> codec;

  public ClassifiedIssueSerializer(String topic) {
    this.topic = topic;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      ClassifiedIssueEvent e, KafkaSinkContext context, Long timestamp) {
    if (codec == null) {
      codec = AvroCodec.classifiedIssues();
    }
    ClassifiedIssue record = ClassifiedIssueRecords.of(e);
    return new ProducerRecord<>(
        topic,
        null,
        e.stateVersion,
        e.issue.id.getBytes(StandardCharsets.UTF_8),
        codec.encode(record));
  }
}
