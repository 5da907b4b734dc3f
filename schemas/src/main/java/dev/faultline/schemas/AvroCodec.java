package dev.faultline.schemas;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Avro single-object encoding (a header with the writer schema's fingerprint, then the binary
 * record) for Kafka values. The fingerprint lets a reader detect and resolve an older writer schema
 * it was given.
 */
public final class AvroCodec<T extends SpecificRecordBase> {
  private final BinaryMessageEncoder<T> encoder;
  private final BinaryMessageDecoder<T> decoder;

  private AvroCodec(T prototype) {
    this.encoder =
        new BinaryMessageEncoder<>(
            SpecificData.getForSchema(prototype.getSchema()), prototype.getSchema());
    this.decoder =
        new BinaryMessageDecoder<>(
            SpecificData.getForSchema(prototype.getSchema()), prototype.getSchema());
  }

  public static AvroCodec<Delivery> deliveries() {
    return new AvroCodec<>(new Delivery());
  }

  public static AvroCodec<IssueRecord> issues() {
    return new AvroCodec<>(new IssueRecord());
  }

  public static AvroCodec<ClassifiedIssue> classifiedIssues() {
    return new AvroCodec<>(new ClassifiedIssue());
  }

  public static AvroCodec<DeadLetter> deadLetters() {
    return new AvroCodec<>(new DeadLetter());
  }

  /** Any generated record type. */
  public static <R extends SpecificRecordBase> AvroCodec<R> of(R prototype) {
    return new AvroCodec<>(prototype);
  }

  public byte[] encode(T value) {
    try {
      ByteBuffer buffer = encoder.encode(value);
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not encode " + value.getSchema().getFullName(), e);
    }
  }

  /**
   * Decodes one value.
   *
   * @throws IOException when the bytes are not a single-object encoded record of this type (a
   *     poison record)
   */
  public T decode(byte[] bytes) throws IOException {
    return decoder.decode(bytes);
  }
}
