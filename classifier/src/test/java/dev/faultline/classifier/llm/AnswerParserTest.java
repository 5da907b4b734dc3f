package dev.faultline.classifier.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

class AnswerParserTest {

  private final AnswerParser parser = new AnswerParser(new AnswerSchema(Taxonomy.load()));

  private String reason(String content) {
    return assertInstanceOf(AnswerParser.Rejection.class, parser.parse(content)).reason();
  }

  @Test
  void acceptsAValidAnswer() {
    Answer a =
        assertInstanceOf(AnswerParser.Accepted.class, parser.parse(Fixtures.HANG_ANSWER)).answer();
    assertEquals(Kind.BUG, a.code(Dimension.KIND));
    assertEquals(Symptom.HANG, a.symptom());
    assertEquals(Stage.COMMUNICATION, a.code(Dimension.STAGE));
    assertEquals(Boolean.TRUE, a.code(Dimension.DISTRIBUTED_SPECIFIC));
    Answer q =
        assertInstanceOf(AnswerParser.Accepted.class, parser.parse(Fixtures.QUESTION_ANSWER))
            .answer();
    assertNull(q.code(Dimension.DISTRIBUTED_SPECIFIC));
    assertEquals(
        q, ((AnswerParser.Accepted) parser.parse(parser.format(q))).answer(), "format round-trips");
  }

  @Test
  void rejectsUnparsableOutputWithTheReason() {
    assertTrue(reason("The issue is a hang.").startsWith("unparsable JSON"));
    assertTrue(reason("{\"kind\": \"BUG\",").startsWith("unparsable JSON"));
    assertEquals("empty answer", reason("  "));
    assertEquals("not a JSON object", reason("[\"BUG\"]"));
  }

  @Test
  void rejectsAMissingFieldNamingIt() {
    assertEquals(
        "missing field 'stage'",
        reason(Fixtures.HANG_ANSWER.replace("\"stage\":\"COMMUNICATION\",", "")));
  }

  @Test
  void rejectsAnUnknownCodeNamingFieldAndCode() {
    assertEquals(
        "unknown symptom code 'DEADLOCK'",
        reason(Fixtures.HANG_ANSWER.replace("\"HANG\"", "\"DEADLOCK\"")));
    assertEquals(
        "unknown kind code 'bug'", reason(Fixtures.HANG_ANSWER.replace("\"BUG\"", "\"bug\"")));
  }

  @Test
  void rejectsWrongTypesAndExtraFields() {
    assertTrue(
        reason(
                Fixtures.HANG_ANSWER.replace(
                    "\"distributed_specific\":true", "\"distributed_specific\":\"yes\""))
            .startsWith("field 'distributed_specific' is not true, false or null"));
    assertTrue(
        reason(Fixtures.HANG_ANSWER.replace("\"TRAINING\"", "3"))
            .startsWith("field 'phase' is not a string"));
    assertEquals(
        "unexpected field 'why'",
        reason(Fixtures.HANG_ANSWER.replace("{", "{\"why\":\"because\",")));
  }
}
