package dev.faultline.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.classifier.rules.Classifier;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Root cause, fix pattern and phase rules of rules-1.1, on invented texts. */
class DiagnosisRulesTest {

  private final Classifier classifier = new Classifier(ClassifierConfig.defaults());

  private static IssueText mergedPr(String repo, String title, String body) {
    return new IssueText(repo, 7, title, body, List.of(), List.of(), List.of(), "merged");
  }

  private static IssueText thread(
      String repo, String title, String body, List<String> labels, Comment... comments) {
    return new IssueText(repo, 3, title, body, labels, List.of(comments), List.of(), "closed");
  }

  @Test
  void rootCauseFromMaintainerDiagnosisOfWrongProcessGroup() {
    Classification c =
        classifier.classify(
            thread(
                "deepspeedai/DeepSpeed",
                "all_reduce of expert gradients returns garbage",
                "With expert parallel size 2 the gradients of the experts differ between runs. Error below.",
                List.of(),
                new Comment(
                    "dev1",
                    true,
                    "The issue is that the reduction uses the wrong process group: it should"
                        + " use the expert data parallel group. Fixed in the linked PR.")));
    assertEquals(RootCause.DISTRIBUTED_COMMUNICATION_ERROR, c.rootCause().value());
  }

  @Test
  void rootCauseFromPullRequestThatFixesRaceCondition() {
    Classification c =
        classifier.classify(
            mergedPr(
                "deepspeedai/DeepSpeed",
                "Fix race condition between copy stream and compute stream",
                "The gradient copy could start before the compute stream finished. This PR adds an event wait."));
    assertEquals(Kind.BUG, c.kind().value());
    assertEquals(RootCause.CONCURRENCY_ERROR, c.rootCause().value());
  }

  @Test
  void rootCauseAndFixFromPullRequestAddingDivisibilityCheck() {
    Classification c =
        classifier.classify(
            mergedPr(
                "NVIDIA/Megatron-LM",
                "Add a check that the hidden size is divisible by the TP size",
                "Without it the layer silently produced wrong shapes. This PR adds a check whether the size is"
                    + " divisible by the tensor parallel size and raises early."));
    assertEquals(RootCause.PRECONDITION_MISSING, c.rootCause().value());
    assertEquals(FixPattern.CONDITIONAL_LOGIC, c.fixPattern().value());
  }

  @Test
  void rootCauseTypoInPullRequestIsIncorrectImplementation() {
    Classification c =
        classifier.classify(
            mergedPr(
                "deepspeedai/DeepSpeed",
                "fix typo in optimizer state key",
                "This PR fixes a typo that made the loader look up the wrong key."));
    assertEquals(RootCause.INCORRECT_IMPLEMENTATION, c.rootCause().value());
  }

  @Test
  void rootCauseFromUpstreamLabelIsDependentModuleIssue() {
    Classification c =
        classifier.classify(
            thread(
                "horovod/horovod",
                "allgather hangs with 8 workers",
                "It hangs forever on the second step.",
                List.of("upstream issue")));
    assertEquals(RootCause.DEPENDENT_MODULE_ISSUE, c.rootCause().value());
  }

  @Test
  void noRootCauseWhenOnlySymptomIsDescribed() {
    Classification c =
        classifier.classify(
            thread(
                "deepspeedai/DeepSpeed",
                "Training crashes with ZeRO-3",
                "RuntimeError: tensor a must match tensor b. Traceback (most recent call last): ...",
                List.of(),
                new Comment("user2", false, "Same here, any update?")));
    assertEquals(RootCause.UNKNOWN, c.rootCause().value());
    assertEquals(FixPattern.UNKNOWN, c.fixPattern().value());
  }

  @Test
  void fixPatternFromPatchThatAddsAnIfBranch() {
    Classification c =
        classifier.classify(
            thread(
                "deepspeedai/DeepSpeed",
                "Crash when the optimizer is None",
                "Traceback (most recent call last):"
                    + "\nAttributeError: 'NoneType' object has no attribute 'step'",
                List.of(),
                new Comment(
                    "user3",
                    false,
                    "This works for me:\n```\n@@ -10,6 +10,8 @@ def step(self):\n"
                        + "+    if self.optimizer is None:\n+        return\n```")));
    assertEquals(FixPattern.CONDITIONAL_LOGIC, c.fixPattern().value());
  }

  @Test
  void fixPatternForBuildFailureAnsweredWithInstallInstructions() {
    Classification c =
        classifier.classify(
            thread(
                "deepspeedai/DeepSpeed",
                "Error building extension 'fused_lamb'",
                "ninja: build stopped: subcommand failed.\nRuntimeError: Error building extension",
                List.of(),
                new Comment(
                    "dev2",
                    false,
                    "Please reinstall with DS_BUILD_FUSED_LAMB=1 pip install deepspeed")));
    assertEquals(FixPattern.VERSION_DEPENDENCY_MANAGEMENT, c.fixPattern().value());
  }

  @Test
  void rootCauseVersionIncompatibilityWhenImportedNameMovedBetweenReleases() {
    Classification c =
        classifier.classify(
            thread(
                "hpcaitech/ColossalAI",
                "ImportError in the example",
                "ImportError: cannot import name 'FooPlugin' from 'colossalai.booster'",
                List.of(),
                new Comment(
                    "dev3",
                    false,
                    "The example is outdated; please use version 0.3.1 of the examples.")));
    assertEquals(RootCause.VERSION_INCOMPATIBILITY, c.rootCause().value());
  }

  @Test
  void phaseIsInferenceForServingEngineWithoutTrainingWords() {
    Classification c =
        classifier.classify(
            IssueText.of(
                "vllm-project/vllm",
                5,
                "Worker process dies with RuntimeError",
                "RuntimeError: CUDA error: an illegal memory access was encountered"));
    assertEquals(Phase.INFERENCE, c.label(Dimension.PHASE).value());
  }

  @Test
  void phaseStaysUnknownWhenOnlyModelNamesAppear() {
    Classification c =
        classifier.classify(
            IssueText.of(
                "hpcaitech/ColossalAI",
                5,
                "Crash with a llama checkpoint path",
                "RuntimeError: file not found when reading the llama config"));
    assertEquals(Phase.UNKNOWN, c.label(Dimension.PHASE).value());
  }

  @Test
  void questionTaggedPostWithTracebackIsBug() {
    Classification c =
        classifier.classify(
            IssueText.of(
                "deepspeedai/DeepSpeed",
                9,
                "[Question] loading a model with init_inference",
                "When I call init_inference I get:\nTraceback (most recent call last):\n  File \"run.py\", line 3\n"
                    + "KeyError: 'attn'"));
    assertEquals(Kind.BUG, c.kind().value());
  }

  @Test
  void questionTaggedPostWithoutTracebackStaysQuestion() {
    Classification c =
        classifier.classify(
            IssueText.of(
                "deepspeedai/DeepSpeed",
                9,
                "[Question] how to set the bucket size",
                "How do I choose reduce_bucket_size for a 7B model on 16 GPUs?"));
    assertEquals(Kind.QUESTION, c.kind().value());
  }

  @Test
  void bugTaggedTitleEndingInQuestionMarkIsStillBug() {
    Classification c =
        classifier.classify(
            IssueText.of(
                "deepspeedai/DeepSpeed",
                9,
                "[BUG] reported step time keeps growing?",
                "Each iteration the profiler reports a larger value although the model is unchanged. Code below.\n"
                    + "for i in range(10): prof.start_profile(); step(); prof.stop_profile()"));
    assertEquals(Kind.BUG, c.kind().value());
  }

  @Test
  void withdrawnPostWithPlaceholderTitleIsOther() {
    Classification c =
        classifier.classify(
            new IssueText(
                "hpcaitech/ColossalAI",
                9,
                "deleted",
                "",
                List.of(),
                List.of(
                    new Comment(
                        "a", false, "We are still working on the training results, stay tuned."),
                    new Comment("b", false, "any progress?")),
                List.of(),
                "closed"));
    assertEquals(Kind.OTHER, c.kind().value());
  }
}
