package dev.faultline.classifier.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.IssueText;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PromptTest {

  private final Taxonomy taxonomy = Taxonomy.load();

  @Test
  void systemMessageCarriesEveryAnsweredCodeWithItsDefinitionAndTheDecisionRules() {
    String system = new Prompt(taxonomy, 0).system();
    for (Dimension d : AnswerSchema.CODED.values()) {
      for (Taxonomy.Code c : taxonomy.dimension(d).codes()) {
        assertTrue(
            system.contains("- " + c.code() + ": " + c.definition()),
            d + " " + c.code() + " missing");
      }
      for (String symbol : taxonomy.dimension(d).allSymbols()) {
        assertTrue(system.contains("- " + symbol + ":"), symbol + " missing");
      }
    }
    assertFalse(taxonomy.decisionRules().isEmpty());
    for (String rule : taxonomy.decisionRules()) {
      assertTrue(system.contains(rule), "decision rule missing: " + rule);
    }
    for (String field : AnswerSchema.FIELDS) {
      assertTrue(system.contains(field), field);
    }
  }

  @Test
  void userMessageShowsTheNearestExamplesWithTheirLabelsWhenAnExampleSetIsConfigured(
      @TempDir Path dir) throws Exception {
    ExampleSet set = ExampleSet.load(Fixtures.examples(dir), new WordEmbedder());
    Prompt prompt = new Prompt(taxonomy, 2);
    IssueText item = Fixtures.hangIssue();
    List<ExampleSet.Near> near = set.nearest(item, prompt.k());
    assertEquals(2, near.size());
    assertEquals(
        "acme/examples#1", near.get(0).example().id(), "the all_reduce example is nearest");
    List<Prompt.Message> messages = prompt.messages(item, near);
    assertEquals(List.of("system", "user"), messages.stream().map(Prompt.Message::role).toList());
    String user = messages.get(1).content();
    assertTrue(user.contains("Ranks wait forever in all_reduce after resuming"), user);
    assertTrue(
        user.contains("\"symptom\": \"HANG\"") && user.contains("\"distributed_specific\": true"),
        user);
    assertTrue(user.indexOf("Example 1") < user.indexOf("Label this item:"));
    assertTrue(user.contains(item.title()) && user.contains("no error is printed"));
  }

  @Test
  void promptWithoutExamplesShowsOnlyTheItemAndHasItsOwnVersion() {
    Prompt plain = new Prompt(taxonomy, 0);
    String user = plain.messages(Fixtures.hangIssue(), List.of()).get(1).content();
    assertFalse(user.contains("Example 1"));
    assertTrue(user.startsWith("Label this item:"));
    assertTrue(plain.version().startsWith(Prompt.PROMPT_VERSION + "."));
    assertNotEquals(plain.version(), new Prompt(taxonomy, 3).version());
    assertTrue(new Prompt(taxonomy, 3).version().endsWith("+k3"));
  }

  @Test
  void examplesAreShortExcerptsAndNeverTheItemItself(@TempDir Path dir) throws Exception {
    ExampleSet set = ExampleSet.load(Fixtures.examples(dir), new WordEmbedder());
    IssueText sameAsExample =
        IssueText.of(
            "acme/examples",
            1,
            "Ranks wait forever in all_reduce after resuming",
            "Every rank blocks in all_reduce once the job restarts.");
    List<ExampleSet.Near> near = set.nearest(sameAsExample, 3);
    assertEquals(2, near.size());
    assertTrue(near.stream().noneMatch(n -> n.example().id().equals("acme/examples#1")));
    IssueText longOne = IssueText.of("acme/x", 5, "Long", "word ".repeat(500));
    assertTrue(ExampleSet.excerpt(longOne).length() <= ExampleSet.EXCERPT_CHARS);
  }

  @Test
  void longItemsKeepHeadAndTailWithinTheLimit() {
    String body = "HEADMARK " + "x".repeat(20_000) + " TAILMARK";
    String content = Prompt.itemContent(IssueText.of("acme/x", 7, "A long log", body));
    assertTrue(content.length() <= Prompt.MAX_ITEM_CHARS + 100, "length " + content.length());
    assertTrue(
        content.contains("HEADMARK")
            && content.contains("TAILMARK")
            && content.contains("left out"));
  }

  @Test
  void editingTheTaxonomyTextChangesThePromptVersion() {
    Taxonomy edited =
        new Taxonomy(
            taxonomy.version(),
            taxonomy.dimensions(),
            taxonomy.stageHints(),
            taxonomy.distributedHints(),
            List.of("A different rule."));
    assertNotEquals(new Prompt(taxonomy, 0).version(), new Prompt(edited, 0).version());
  }
}
