package dev.faultline.classifier.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerSchemaTest {

  private final Taxonomy taxonomy = Taxonomy.load();
  private final AnswerSchema schema = new AnswerSchema(taxonomy);

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  @Test
  void everyCodedFieldIsAnEnumOfTheTaxonomysSymbols() {
    JsonNode props = schema.schema().get("properties");
    AnswerSchema.CODED.forEach(
        (field, dim) -> {
          assertEquals("string", props.get(field).get("type").asText());
          assertEquals(
              taxonomy.dimension(dim).allSymbols(), texts(props.get(field).get("enum")), field);
        });
    assertEquals(List.of("boolean", "null"), texts(props.get("distributed_specific").get("type")));
    assertTrue(
        texts(props.get("symptom").get("enum"))
            .containsAll(List.of("NONE", "UNKNOWN", "OUT_OF_MEMORY")));
  }

  @Test
  void everyFieldIsRequiredAndNoOtherIsAllowed() {
    JsonNode s = schema.schema();
    assertEquals("object", s.get("type").asText());
    List<String> all = new java.util.ArrayList<>(AnswerSchema.FIELDS);
    all.add(AnswerSchema.VERSIONS);
    assertEquals(all, texts(s.get("required")));
    assertEquals(all, texts(() -> s.get("properties").fieldNames()));
    JsonNode item = s.at("/properties/versions/items");
    assertEquals("array", s.at("/properties/versions/type").asText());
    assertEquals(List.of("component", "version"), texts(item.get("required")));
    assertFalse(item.get("additionalProperties").asBoolean(), "strict: no free-form objects");
    assertFalse(s.get("additionalProperties").asBoolean());
  }

  @Test
  void responseFormatIsAStrictJsonSchema() {
    JsonNode rf = schema.responseFormat(new ObjectMapper());
    assertEquals("json_schema", rf.get("type").asText());
    assertEquals(AnswerSchema.NAME, rf.get("json_schema").get("name").asText());
    assertTrue(rf.get("json_schema").get("strict").asBoolean());
    assertEquals(schema.schema(), rf.get("json_schema").get("schema"));
  }

  private static List<String> texts(Iterable<String> names) {
    List<String> out = new ArrayList<>();
    names.forEach(out::add);
    return out;
  }
}
