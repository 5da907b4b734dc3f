package dev.faultline.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.junit.jupiter.api.Test;

/**
 * The Alert record gained the statistical fields of issue 17 and the grouped shape of issue 27
 * ({@code moved}) with defaults: old and new readers and writers mix.
 */
class AlertSchemaCompatibilityTest {

  private static Schema before() throws Exception {
    Schema.Parser parser = new Schema.Parser();
    parser.parse(StatDimension.getClassSchema().toString());
    try (InputStream in =
        AlertSchemaCompatibilityTest.class.getResourceAsStream("alert-before-issue-17.avsc")) {
      parser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    return parser.getTypes().get("dev.faultline.schemas.Alert");
  }

  @Test
  void newReadersReadOldAlertsAndOldReadersReadNewOnes() throws Exception {
    Schema old = before();
    assertEquals(
        SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE,
        SchemaCompatibility.checkReaderWriterCompatibility(Alert.getClassSchema(), old).getType());
    assertEquals(
        SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE,
        SchemaCompatibility.checkReaderWriterCompatibility(old, Alert.getClassSchema()).getType());
  }

  @Test
  void anOldAlertReadsWithTheNewFieldsAtTheirDefaults() throws Exception {
    Schema old = before();
    GenericRecord r = new GenericData.Record(old);
    r.put("id", "DeepSpeed/symptom/HANG/SURGE/2024-03-01");
    r.put("framework", "DeepSpeed");
    r.put("dimension", new GenericData.EnumSymbol(old.getField("dimension").schema(), "SYMPTOM"));
    r.put("category", "HANG");
    r.put("kind", new GenericData.EnumSymbol(old.getField("kind").schema(), "SURGE"));
    r.put("windowStart", 0L);
    r.put("windowEnd", 604_800_000L);
    r.put("count", 9L);
    r.put("baseline", 1.5);
    r.put("score", 4.2);
    r.put("exampleIssueIds", List.of());
    r.put("explanation", "old");
    r.put("raisedAt", 604_800_000L);
    r.put("withdrawn", false);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(bytes, null);
    new GenericDatumWriter<GenericRecord>(old).write(r, encoder);
    encoder.flush();
    Alert read =
        new SpecificDatumReader<Alert>(old, Alert.getClassSchema())
            .read(null, DecoderFactory.get().binaryDecoder(bytes.toByteArray(), null));
    assertEquals(9L, read.getCount());
    assertEquals(Instant.ofEpochMilli(604_800_000L), read.getWindowEnd());
    assertNull(read.getPValue());
    assertNull(read.getRelease());
    assertNull(read.getTest());
    assertEquals(List.of(), read.getMoved());
  }
}
