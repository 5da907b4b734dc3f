package dev.faultline.jobs.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.rules.Classifier;
import dev.faultline.graph.PullRequestRow;
import dev.faultline.jobs.records.PullRequestEvent;
import org.junit.jupiter.api.Test;

class PullRequestClassificationTest {
  private final PullRequestClassification classification =
      new PullRequestClassification(new Classifier(ClassifierConfig.defaults()));

  private static PullRequestEvent change(String title, String body, boolean merged) {
    PullRequestEvent p = new PullRequestEvent();
    p.id = "acme/trainer#45";
    p.repo = "deepspeedai/DeepSpeed";
    p.number = 45;
    p.title = title;
    p.body = body;
    p.merged = merged;
    p.additions = 3;
    p.deletions = 1;
    return p;
  }

  @Test
  void classifiesAMergedFixByItself() {
    PullRequestEvent fix =
        change(
            "Fix hang in ZeRO-3 all-gather when a rank has no parameters",
            "The job hangs forever at the first all_gather with 16 ranks: ranks with empty partitions skipped the"
                + " collective. Make every rank join the collective.",
            true);
    PullRequestRow.Classification c = classification.classify(fix);
    assertNotNull(c, "a merged bug fix is classified");
    assertEquals(
        dev.faultline.schemas.taxonomy.Kind.BUG,
        c.codes().get(dev.faultline.schemas.taxonomy.Dimension.KIND));
    assertNotNull(c.classifierVersion());
    for (dev.faultline.schemas.taxonomy.Dimension d :
        dev.faultline.schemas.taxonomy.Dimension.values()) {
      assertEquals(
          "cv:" + Classifier.VERSION,
          c.calibration().get(d),
          d + ": the rules' labels rest on their cross-validated confusion");
      java.util.List<Double> p = c.probabilities().get(d);
      assertNotNull(p, d + ": every label carries its distribution for the estimates");
      assertEquals(d.distributionCodes().size(), p.size(), d.key());
      assertEquals(1.0, p.stream().mapToDouble(Double::doubleValue).sum(), 0.002, d.key());
    }
    // the kind's distribution puts its largest mass on the code the change is classified as
    java.util.List<Double> kind =
        c.probabilities().get(dev.faultline.schemas.taxonomy.Dimension.KIND);
    int bug = dev.faultline.schemas.taxonomy.Dimension.KIND.distributionCodes().indexOf("BUG");
    assertEquals(java.util.Collections.max(kind), kind.get(bug), 1e-12, kind.toString());
  }

  /**
   * The row crosses Flink's operator chain, which copies it with the type's serializer (Kryo for
   * its maps): a classification with labels, markers and distributions must survive the copy.
   */
  @Test
  void aClassifiedRowSurvivesFlinksCopy() {
    PullRequestRow.Classification c =
        classification.classify(
            change(
                "Fix deadlock in the NCCL barrier when a rank restarts",
                "Ranks wait forever at the barrier after an elastic restart; reset the group.",
                true));
    assertNotNull(c, "classified");
    org.apache.flink.api.common.typeutils.TypeSerializer<PullRequestRow.Classification> serializer =
        org.apache.flink.api.common.typeinfo.TypeInformation.of(PullRequestRow.Classification.class)
            .createSerializer(new org.apache.flink.api.common.serialization.SerializerConfigImpl());
    PullRequestRow.Classification copy = serializer.copy(c);
    assertEquals(c.codes(), copy.codes());
    assertEquals(c.calibration(), copy.calibration());
    assertEquals(c.probabilities(), copy.probabilities());
  }

  @Test
  void leavesOpenPullRequestsAndNonFixesUnclassified() {
    assertNull(
        classification.classify(
            change("Fix hang in ZeRO-3 all-gather", "hangs at all_gather", false)));
    assertNull(
        classification.classify(
            change("Add a tutorial page for the new config docs", "Docs only.", true)));
  }

  @Test
  void aMergedChangeWhoseTitleSaysNoFixAndThatClosesNothingIsNoFix() {
    assertNull(
        classification.classify(change("Add deepseek autotp support", "New model support.", true)));
    PullRequestEvent closing =
        change("Reduce the bubble in coalesced fetch", "Closes #12. The job hung at step 1.", true);
    closing.fixes.add("deepspeedai/DeepSpeed#12");
    assertNotNull(classification.classify(closing), "closing an issue says it fixes something");
  }

  @Test
  void readsTheDiffSummaryOfAChangeFromGitHistory() {
    PullRequestEvent p = change("Raise timeout", "", true);
    p.diffSummary = "--- a/x.py\n+++ b/x.py\n+TIMEOUT = 1800\n";
    assertTrue(PullRequestClassification.textOf(p).body().contains("+TIMEOUT = 1800"));
    assertEquals("merged", PullRequestClassification.textOf(p).state());
  }

  @Test
  void theLearnedLayerReadsAChangeAsItWasTrainedFilesAsTextAndTheDiffApart() {
    PullRequestEvent p =
        change(
            "Fix crash when loading a ZeRO-3 checkpoint with frozen parameters",
            "Loading failed with a KeyError for parameters without gradients; skip them.",
            true);
    p.diffSummary =
        "diff --git a/deepspeed/runtime/engine.py b/deepspeed/runtime/engine.py\n@@ -10,2 +10,3 @@\n"
            + "-        state = sd[name]\n+        if name not in sd:\n+            continue\n+        state = sd[name]\n";
    assertTrue(
        PullRequestClassification.changeTextOf(p)
            .body()
            .endsWith("changed files:\ndeepspeed/runtime/engine.py+3-1"),
        PullRequestClassification.changeTextOf(p).body());
    PullRequestRow.Classification c =
        new PullRequestClassification(dev.faultline.classifier.learned.LearnedClassifier.shared())
            .classify(p);
    assertNotNull(c, "a merged fix the learned layer calls a bug");
    assertEquals(
        dev.faultline.schemas.taxonomy.Kind.BUG,
        c.codes().get(dev.faultline.schemas.taxonomy.Dimension.KIND));
    assertTrue(c.classifierVersion().startsWith("learned-"), c.classifierVersion());
    assertEquals(
        "cv:" + c.classifierVersion(),
        c.calibration().get(dev.faultline.schemas.taxonomy.Dimension.STAGE),
        "the learned layer's labels are calibrated on held-out folds");
  }
}
