package dev.faultline.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClosingReferencesTest {
  @Test
  void findsEveryClosingKeywordFormGithubDocuments() {
    assertEquals(
        List.of("acme/trainer#12", "other/lib#7", "acme/trainer#30", "acme/trainer#31"),
        ClosingReferences.in(
            "acme/trainer",
            "Fixes #12 and closes other/lib#7",
            "This resolves https://github.com/acme/trainer/issues/30. Closed: #31"));
  }

  @Test
  void ignoresMentionsWithoutAClosingKeyword() {
    assertEquals(
        List.of(), ClosingReferences.in("acme/trainer", "Related to #12, see #13; prefix#14"));
  }

  @Test
  void takesTheRepositorySpellingForSameRepositoryReferences() {
    assertEquals(
        List.of("DeepSpeedAI/DeepSpeed#5"),
        ClosingReferences.in("DeepSpeedAI/DeepSpeed", "fixed deepspeedai/deepspeed#5"));
  }
}
