package dev.faultline.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * The classified record gained {@code calibration} (issue 31) as an optional field with a default:
 * records written before it read with an empty map, and readers of before read the new records.
 */
class ClassifiedSchemaCompatibilityTest {

  /** The record's schema as it was before issue 31: without {@code calibration}. */
  private static Schema before() throws Exception {
    ObjectMapper json = new ObjectMapper();
    ObjectNode s = (ObjectNode) json.readTree(ClassifiedIssue.getClassSchema().toString());
    ArrayNode fields = (ArrayNode) s.get("fields");
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).get("name").asText().equals("calibration")) {
        fields.remove(i);
        break;
      }
    }
    return new Schema.Parser().parse(s.toString());
  }

  @Test
  void newReadersReadOldRecordsAndOldReadersReadNewOnes() throws Exception {
    Schema old = before();
    assertEquals(ClassifiedIssue.getClassSchema().getFields().size() - 1, old.getFields().size());
    assertEquals(
        SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE,
        SchemaCompatibility.checkReaderWriterCompatibility(ClassifiedIssue.getClassSchema(), old)
            .getType());
    assertEquals(
        SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE,
        SchemaCompatibility.checkReaderWriterCompatibility(old, ClassifiedIssue.getClassSchema())
            .getType());
  }

  @Test
  void aRecordWrittenBeforeReadsWithNoMarkers() throws Exception {
    ClassifiedIssue r =
        AvroCodec.classifiedIssues().decode(AvroCodec.classifiedIssues().encode(sample()));
    assertEquals(Map.of("symptom", "cv:learned-test"), r.getCalibration());
    Schema old = before();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    // written with the old schema: the new field is not in the bytes
    new org.apache.avro.generic.GenericDatumWriter<Object>(old)
        .write(toOld(sample(), old), encoder);
    encoder.flush();
    ClassifiedIssue read =
        new SpecificDatumReader<ClassifiedIssue>(old, ClassifiedIssue.getClassSchema())
            .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
    assertEquals(Map.of(), read.getCalibration());
    assertEquals("acme/trainer#1", read.getId());
  }

  private static ClassifiedIssue sample() {
    return ClassifiedIssue.newBuilder()
        .setId("acme/trainer#1")
        .setRepo("acme/trainer")
        .setNumber(1)
        .setFramework("trainer")
        .setTitle("t")
        .setUrl("u")
        .setState("open")
        .setCreatedAt(java.time.Instant.ofEpochMilli(1))
        .setUpdatedAt(java.time.Instant.ofEpochMilli(2))
        .setKind(dev.faultline.schemas.taxonomy.Kind.BUG)
        .setSymptom(dev.faultline.schemas.taxonomy.Symptom.HANG)
        .setSymptomClass(dev.faultline.schemas.taxonomy.SymptomClass.HANG)
        .setRootCause(dev.faultline.schemas.taxonomy.RootCause.UNKNOWN)
        .setFixPattern(dev.faultline.schemas.taxonomy.FixPattern.UNKNOWN)
        .setStage(dev.faultline.schemas.taxonomy.Stage.COMMUNICATION)
        .setPhase(dev.faultline.schemas.taxonomy.Phase.TRAINING)
        .setClassifierVersion("learned-test")
        .setDeliveryId("d")
        .setCalibration(Map.of("symptom", "cv:learned-test"))
        .build();
  }

  /** The same record as a generic record of the old schema. */
  private static Object toOld(ClassifiedIssue r, Schema old) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    new SpecificDatumWriter<ClassifiedIssue>(ClassifiedIssue.getClassSchema()).write(r, encoder);
    encoder.flush();
    return new org.apache.avro.generic.GenericDatumReader<Object>(
            ClassifiedIssue.getClassSchema(), old)
        .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
  }
}
