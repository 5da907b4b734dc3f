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

  private static String withVersions(String versions) {
    return Fixtures.HANG_ANSWER.replace("}", ",\"versions\":" + versions + "}");
  }

  @Test
  void versionsFollowTheCodebooksRulesAndRoundTrip() {
    Answer a =
        assertInstanceOf(
                AnswerParser.Accepted.class,
                parser.parse(
                    withVersions(
                        "[{\"component\":\"DeepSpeed\",\"version\":\"v0.14.2\"},"
                            + "{\"component\":\"torch\",\"version\":\"2.3.0+cu121\"},"
                            + "{\"component\":\"deepspeed\",\"version\":\"0.9.0\"}]")))
            .answer();
    assertEquals(
        java.util.Map.of("deepspeed", "0.14.2", "torch", "2.3.0+cu121"),
        a.versions(),
        "keys lower-case, no leading v, first mention wins");
    assertEquals(a, ((AnswerParser.Accepted) parser.parse(parser.format(a))).answer());
    Answer none = ((AnswerParser.Accepted) parser.parse(withVersions("[]"))).answer();
    assertEquals(java.util.Map.of(), none.versions());
    Answer old = ((AnswerParser.Accepted) parser.parse(Fixtures.HANG_ANSWER)).answer();
    assertNull(old.versions(), "an answer of an earlier prompt has no versions field");
  }

  private AnswerParser.Accepted accepted(String content) {
    return assertInstanceOf(AnswerParser.Accepted.class, parser.parse(content));
  }

  @Test
  void oddVersionsAreNormalisedOrDroppedAndNeverRejectTheAnswer() {
    AnswerParser.Accepted a =
        accepted(
            withVersions(
                "[{\"component\":\"megatron-core\",\"version\":\"core-0.12/core-0.11\"},"
                    + "{\"component\":\"deepspeed\",\"version\":\">=2.1,<2.3\"},"
                    + "{\"component\":\"torch 2.1\",\"version\":\"\"},"
                    + "{\"component\":\"apex\",\"version\":\"cafda95\"},"
                    + "{\"component\":\"ngc docker\",\"version\":\"24.01\"},"
                    + "{\"component\":\"cuda\",\"version\":\"latest\"},"
                    + "{\"component\":\"nccl\"},"
                    + "{\"component\":\"triton\",\"version\":\"0.18.5/0.18.6\"},"
                    + "{\"component\":\"python\",\"version\":\"V3.10\"}]"));
    assertEquals(Symptom.HANG, a.answer().symptom(), "the answer keeps its labels");
    assertEquals(
        java.util.Map.of(
            "megatron-core", "0.12/0.11",
            "deepspeed", "2.1/2.3",
            "torch", "2.1",
            "triton", "0.18.5/0.18.6",
            "python", "3.10"),
        a.answer().versions());
    assertEquals(1, a.versions().kept(), "0.18.5/0.18.6 is already the labelled data's form");
    assertEquals(4, a.versions().normalised());
    assertEquals(4, a.versions().dropped());
    String notes = String.join("\n", a.versions().notes());
    assertTrue(notes.contains("'cafda95' dropped: a commit hash"), notes);
    assertTrue(notes.contains("'ngc docker' is not a component key"), notes);
    assertTrue(notes.contains("'latest' dropped: names no version"), notes);
    assertTrue(notes.contains("-> 'megatron-core' 0.12/0.11"), notes);
    // a hash that starts with a digit is still a hash; a version with a local suffix is not
    assertEquals(
        java.util.Map.of("torch", "2.3.0+cu121"),
        accepted(
                withVersions(
                    "[{\"component\":\"megatron-lm\",\"version\":\"3efc229\"},"
                        + "{\"component\":\"torch\",\"version\":\"2.3.0+cu121\"}]"))
            .answer()
            .versions());
    AnswerParser.Accepted notArray = accepted(withVersions("{\"torch\":\"2.1\"}"));
    assertNull(notArray.answer().versions(), "the offline versions stay");
    assertEquals(1, notArray.versions().dropped());
    assertEquals(
        a.answer(), accepted(parser.format(a.answer())).answer(), "the normal form round-trips");
  }
}
