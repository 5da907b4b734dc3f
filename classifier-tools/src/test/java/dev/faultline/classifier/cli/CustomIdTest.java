package dev.faultline.classifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The three custom_id forms {@code llm export} has written, read by the one rule. */
class CustomIdTest {

  private static final String URL = "https://github.com/acme/trainer/issues/42";
  private static final String KEY = "0123456789abcdef0123456789abcdef01234567";

  @Test
  void newestFormNamesModelPromptAsOfAndItem() {
    CustomId id = CustomId.parse(URL + "#gpt-x#p3#2026-05-01T10:00:00Z#" + KEY);
    assertEquals(KEY, id.key());
    assertEquals(new LlmCommand.Target("gpt-x", "p3"), id.target());
    assertEquals(Instant.parse("2026-05-01T10:00:00Z"), id.asOf());
    assertEquals("acme/trainer#42", id.item());
  }

  @Test
  void formWithoutAsOfStillNamesModelAndPrompt() {
    CustomId id = CustomId.parse(URL + "#gpt-x#p3#" + KEY);
    assertEquals(new LlmCommand.Target("gpt-x", "p3"), id.target());
    assertNull(id.asOf());
    assertEquals("acme/trainer#42", id.item());
  }

  @Test
  void oldestFormNamesOnlyTheItemAndKey() {
    CustomId id = CustomId.parse(URL + "#" + KEY);
    assertNull(id.target());
    assertNull(id.asOf());
    assertEquals("acme/trainer#42", id.item());
    assertEquals(KEY, id.key());
  }

  @Test
  void aUrlWithAnAnchorKeepsItsIssue() {
    CustomId id = CustomId.parse(URL + "#issuecomment-7#gpt-x#p3#2026-05-01T10:00:00Z#" + KEY);
    assertEquals(new LlmCommand.Target("gpt-x", "p3"), id.target());
    assertEquals("acme/trainer#42", id.item());
  }

  @Test
  void noHashNamesNothing() {
    CustomId id = CustomId.parse("free-text");
    assertEquals("", id.key());
    assertNull(id.target());
    assertNull(id.item());
  }
}
