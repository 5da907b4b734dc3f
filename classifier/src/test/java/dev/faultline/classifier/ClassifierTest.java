package dev.faultline.classifier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.rules.Classifier;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Behaviour of the rules on invented issue texts. */
class ClassifierTest {

  private final Classifier classifier = new Classifier(ClassifierConfig.defaults());

  private static IssueText issue(String title, String body) {
    return IssueText.of("deepspeedai/DeepSpeed", 1, title, body);
  }

  @Test
  void classifiesNcclWatchdogTimeoutAsHang() {
    Classification c =
        classifier.classify(
            issue(
                "Training stalls after 300 steps with watchdog timeout",
                "Running on 4 nodes with 8 GPUs each. After a few hundred iterations all ranks stop.\n"
                    + "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE) ran for"
                    + " 1800000 milliseconds before timing out."));
    assertEquals(Kind.BUG, c.kind().value());
    assertEquals(Symptom.HANG, c.symptom().value());
    assertEquals(SymptomClass.HANG, c.symptomClass().value());
    assertEquals(Stage.COMMUNICATION, c.stage().value());
    assertEquals(Boolean.TRUE, c.label(Dimension.DISTRIBUTED_SPECIFIC).value());
    assertTrue(c.symptom().evidence().contains("watchdog"), c.symptom().evidence());
  }

  @Test
  void classifiesCudaOutOfMemoryAsOutOfMemoryInMemoryStage() {
    Classification c =
        classifier.classify(
            issue(
                "[BUG] ZeRO-3 offload still runs out of memory",
                "When I fine-tune a 13B model with zero stage 3 and cpu offload I get\n"
                    + "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"));
    assertEquals(Symptom.OUT_OF_MEMORY, c.symptom().value());
    assertEquals(SymptomClass.CRASH, c.symptomClass().value());
    assertEquals(Stage.MEMORY, c.stage().value());
    assertEquals(Phase.TRAINING, c.label(Dimension.PHASE).value());
  }

  @Test
  void classifiesExtensionBuildFailureAsBuildInstallFailureOnOneDevice() {
    Classification c =
        classifier.classify(
            issue(
                "Error building extension 'cpu_adam' on a fresh machine",
                "pip install deepspeed works but the JIT build of cpu_adam fails:\n"
                    + "ninja: build stopped: subcommand failed.\nRuntimeError: Error building extension 'cpu_adam'"));
    assertEquals(Symptom.BUILD_INSTALL_FAILURE, c.symptom().value());
    assertEquals(SymptomClass.BUILD_FAILURE, c.symptomClass().value());
    assertEquals(Stage.INITIALIZATION, c.stage().value());
    assertEquals(Boolean.FALSE, c.label(Dimension.DISTRIBUTED_SPECIFIC).value());
  }

  @Test
  void classifiesMissingModuleAsImportError() {
    Classification c =
        classifier.classify(
            issue(
                "ModuleNotFoundError after upgrade",
                "import colossalai\nModuleNotFoundError: No module named 'foo_ext'"));
    assertEquals(Symptom.IMPORT_ERROR, c.symptom().value());
    assertEquals(Stage.INITIALIZATION, c.stage().value());
  }

  @Test
  void classifiesCheckpointLoadFailureAsFaultTolerance() {
    Classification c =
        classifier.classify(
            issue(
                "[BUG] load_checkpoint fails after changing the number of GPUs",
                "I saved a checkpoint with 8 ranks and try to resume on 4 ranks. load_checkpoint raises\n"
                    + "RuntimeError: size mismatch for optimizer state"));
    assertEquals(Symptom.CHECKPOINT_FAILURE, c.symptom().value());
    assertEquals(Stage.FAULT_TOLERANCE, c.stage().value());
  }

  @Test
  void countsLogLinesOfRankOneOrAboveAsSeveralProcesses() {
    String log =
        "[rank2]: Traceback (most recent call last):\n"
            + "[rank2]:   File \"train.py\", line 12, in <module>\n"
            + "[rank2]: ValueError: cannot reshape the embedding weight\n";
    Classification several =
        classifier.classify(issue("Crash when the run starts", "It fails:\n" + log));
    assertEquals(Boolean.TRUE, several.label(Dimension.DISTRIBUTED_SPECIFIC).value());
    // rank 0 alone is what a single process prints
    Classification one =
        classifier.classify(
            issue("Crash when the run starts", "It fails:\n" + log.replace("rank2", "rank0")));
    assertNotEquals(Boolean.TRUE, one.label(Dimension.DISTRIBUTED_SPECIFIC).value());
  }

  @Test
  void answersQuestionWithoutTracebackWithSymptomNone() {
    Classification c =
        classifier.classify(
            issue(
                "How do I choose the micro batch size for pipeline parallelism?",
                "I am not sure how gradient accumulation interacts with the number of pipeline stages. Any"
                    + " suggestions?"));
    assertEquals(Kind.QUESTION, c.kind().value());
    assertEquals(Symptom.NONE, c.symptom().value());
    assertNull(c.label(Dimension.DISTRIBUTED_SPECIFIC).value());
  }

  @Test
  void treatsQuestionTaggedReportWithFrameworkTracebackAsBug() {
    Classification c =
        classifier.classify(
            issue(
                "[QUESTION] ImportError when launching the example",
                "Traceback (most recent call last):\n  File \"train.py\", line 3\n"
                    + "ImportError: cannot import name 'fused_thing' from 'apex'"));
    assertEquals(Kind.BUG, c.kind().value());
    assertEquals(Symptom.IMPORT_ERROR, c.symptom().value());
  }

  @Test
  void treatsEmptyTemplateAsOther() {
    Classification c = classifier.classify(issue("[BUG]", ""));
    assertEquals(Kind.OTHER, c.kind().value());
    assertEquals(Symptom.NONE, c.symptom().value());
  }

  @Test
  void leavesRootCauseAndFixUnknownWithoutDiagnosis() {
    Classification c =
        classifier.classify(
            issue(
                "Segmentation fault in forward pass",
                "The run crashes with a segmentation fault (core dumped)."));
    assertEquals(Symptom.RUNTIME_CRASH, c.symptom().value());
    assertEquals(RootCause.UNKNOWN, c.rootCause().value());
    assertEquals(FixPattern.UNKNOWN, c.fixPattern().value());
  }

  @Test
  void assignsVersionFixWhenThreadReportsResolutionByUpgrade() {
    IssueText in =
        new IssueText(
            "hpcaitech/ColossalAI",
            7,
            "ImportError: cannot import name 'OldContext'",
            "After pip install I cannot import the context class.",
            List.of(),
            List.of(
                new Comment(
                    "maint", true, "This class was removed in the new version; it is deprecated."),
                new Comment(
                    "reporter",
                    false,
                    "I had to downgrade to the older release and now it works. Solved.")),
            List.of(),
            "closed");
    Classification c = classifier.classify(in);
    assertEquals(RootCause.VERSION_INCOMPATIBILITY, c.rootCause().value());
    assertEquals(FixPattern.VERSION_DEPENDENCY_MANAGEMENT, c.fixPattern().value());
  }

  @Test
  void letsConfiguredGithubLabelDecidePhaseAsHumanGiven() {
    IssueText in =
        new IssueText(
            "deepspeedai/DeepSpeed",
            2,
            "Kernel launch fails",
            "CUDA error: an illegal memory access was encountered",
            List.of("bug", "inference"),
            List.of(),
            List.of(),
            "open");
    Classification c = classifier.classify(in);
    assertEquals(Phase.INFERENCE, c.label(Dimension.PHASE).value());
    assertTrue(c.label(Dimension.PHASE).humanGiven());
    assertEquals(1.0, c.label(Dimension.PHASE).confidence());
    assertFalse(c.symptom().humanGiven());
  }

  @Test
  void answersUnknownBelowTheConfiguredThreshold() {
    Classifier strict = new Classifier(new ClassifierConfig(0.95, java.util.Map.of()));
    Classification c =
        strict.classify(
            issue(
                "Something is off",
                "The numbers look wrong sometimes after a while, not sure why."));
    assertEquals(Symptom.UNKNOWN, c.symptom().value());
    assertTrue(c.symptom().evidence().startsWith("below threshold"), c.symptom().evidence());
  }

  @Test
  void namesFrameworkVersionsAndClassifierVersion() {
    Classification c =
        classifier.classify(
            issue(
                "Crash on startup",
                "Environment:\n- torch 2.1.0+cu118\n- deepspeed==0.12.3\nRuntimeError: boom"));
    assertEquals("DeepSpeed", c.framework().value());
    assertEquals("2.1.0+cu118", c.versions().get("torch"));
    assertEquals("0.12.3", c.versions().get("deepspeed"));
    assertEquals(Classifier.VERSION, c.classifierVersion());
  }

  @Test
  void putsCrashInsideEngineConstructionInInitializationStage() {
    Classification c =
        classifier.classify(
            issue(
                "[BUG] TypeError raised inside deepspeed.initialize with a custom optimizer",
                "Calling model_engine, opt, _, _ = deepspeed.initialize(model=net, optimizer=my_opt)\n"
                    + "Traceback (most recent call last):\n  File \"run.py\", line 12\n"
                    + "TypeError: unsupported operand type(s) for the forward kernel loss"));
    assertEquals(Kind.BUG, c.kind().value());
    assertEquals(Stage.INITIALIZATION, c.stage().value());
  }

  @Test
  void putsActivationCheckpointingCrashInMemoryStageEvenInPipelineEngine() {
    Classification c =
        classifier.classify(
            issue(
                "[BUG] crash when activation checkpointing is on",
                "In the pipeline engine, activation_checkpoint_interval set to 1 makes the step raise an error.\n"
                    + "Traceback (most recent call last):\nRuntimeError: expected a tensor"));
    assertEquals(Stage.MEMORY, c.stage().value());
  }

  @Test
  void putsWrongNumbersInComputationStageWhateverTheShardingScheme() {
    Classification c =
        classifier.classify(
            issue(
                "Loss becomes NaN after a few steps with ZeRO stage 2",
                "After 100 steps the loss is nan and accuracy drops; the fused optimizer is used."));
    assertEquals(Symptom.INCORRECT_OUTPUT, c.symptom().value());
    assertEquals(Stage.COMPUTATION, c.stage().value());
  }

  @Test
  void putsCheckpointFeatureRequestInFaultToleranceStage() {
    Classification c =
        classifier.classify(
            issue(
                "[FEATURE] save/load of sharded optimizer states for the hybrid plugin",
                "It would be nice to support saving the sharded optimizer states, please add support."));
    assertEquals(Kind.FEATURE_REQUEST, c.kind().value());
    assertEquals(Stage.FAULT_TOLERANCE, c.stage().value());
  }

  @Test
  void putsInstallationQuestionInInitializationStage() {
    Classification c =
        classifier.classify(
            issue(
                "[QUESTION] can I install the package with an older CUDA toolkit?",
                "Is it possible to pip install it on a cluster where only an old toolkit is available?"));
    assertEquals(Kind.QUESTION, c.kind().value());
    assertEquals(Stage.INITIALIZATION, c.stage().value());
  }

  @Test
  void doesNotReadOpReportBoilerplateAsBuildOrImportFailure() {
    Classification c =
        classifier.classify(
            issue(
                "Error when training with torch.compile enabled",
                "I get an error in the forward pass after enabling compile.\n"
                    + "NOTE: Ops not installed will be just-in-time (JIT) compiled at runtime if needed.\n"
                    + "JIT compiled ops requires ninja\nninja .................. [OKAY]"));
    assertEquals(Kind.BUG, c.kind().value());
    assertFalse(c.symptom().value() == Symptom.IMPORT_ERROR, c.symptom().evidence());
  }

  @Test
  void treatsBugReportOfSilentlyIgnoredSettingWithAQuestionInItAsBug() {
    Classification c =
        classifier.classify(
            issue(
                "[BUG] offload setting silently ignored by the trainer",
                "The offload_optimizer device is silently ignored and has no effect. Is there a way to force it?"));
    assertEquals(Kind.BUG, c.kind().value());
  }

  @Test
  void treatsTagOnlyTitleOverUneditedTemplateAsOther() {
    Classification c =
        classifier.classify(
            issue(
                "[FEATURE]",
                "**Is your request related to a problem?**\nA clear and concise description of the problem.\n"
                    + "**Describe the solution you'd like**\nA clear and concise description of what you want.\n"
                    + "**Alternatives**\nA clear and concise description of any alternatives.\n"
                    + "**Additional context**\nAdd any other context here."));
    assertEquals(Kind.OTHER, c.kind().value());
    assertEquals(Stage.UNKNOWN, c.stage().value());
    assertNull(c.label(Dimension.DISTRIBUTED_SPECIFIC).value());
  }

  @Test
  void keepsWrongNumbersInCommunicationStageWhenTheTitleBlamesACommunicationFeature() {
    Classification c =
        classifier.classify(
            issue(
                "[BUG] loss does not decrease with overlap_comm enabled",
                "Setting overlap_comm to true in the config makes the training curve flat."));
    assertEquals(Symptom.INCORRECT_OUTPUT, c.symptom().value());
    assertEquals(Stage.COMMUNICATION, c.stage().value());
  }

  @Test
  void givesSameAnswersFromManyThreads() throws Exception {
    IssueText in =
        issue("NCCL error: unhandled system error", "ncclSystemError during all_reduce on rank 5");
    Classification expected = classifier.classify(in);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Classification>> results = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        results.add(pool.submit(() -> classifier.classify(in)));
      }
      for (Future<Classification> r : results) {
        assertEquals(expected, r.get());
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(Symptom.COMMUNICATION_FAILURE, expected.symptom().value());
  }

  @Test
  void aPastedDsReportDoesNotMakeARuntimeCrashAnInstallFailure() {
    String report = dev.faultline.classifier.internal.ToolReportTest.DS_REPORT;
    Classification c =
        classifier.classify(
            issue(
                "bf16 training with the pipeline engine",
                "The first step fails.\n"
                    + report
                    + "RuntimeError: expected scalar type BFloat16 but found Float\n"));
    assertEquals(Symptom.RUNTIME_CRASH, c.symptom().value(), c.symptom().evidence());
    assertEquals(
        "2.2.0",
        c.versions().get("torch"),
        "versions are still read from the report: " + c.versions());
  }

  @Test
  void anEmptiedReportHasNoStageAndNoPhase() {
    Classification c = classifier.classify(issue("delete", "training"));
    assertEquals(Kind.OTHER, c.kind().value());
    assertEquals(Stage.UNKNOWN, c.stage().value(), c.stage().evidence());
    assertEquals(
        Phase.UNKNOWN, c.label(Dimension.PHASE).value(), c.label(Dimension.PHASE).evidence());
  }

  @Test
  void aHybridEngineDefectIsOfBothPhasesAndPlainTrainingIsTraining() {
    Classification both =
        classifier.classify(
            issue(
                "[BUG] hybrid engine returns garbage tokens after the first PPO step",
                "In step 3 the actor generates with the hybrid engine, then trains; after one update generation is"
                    + " wrong."));
    assertEquals(
        Phase.BOTH, both.label(Dimension.PHASE).value(), both.label(Dimension.PHASE).evidence());
    assertTrue(
        both.label(Dimension.PHASE).evidence().contains("hybrid engine"),
        both.label(Dimension.PHASE).evidence());
    Classification training =
        classifier.classify(
            issue(
                "[BUG] loss is NaN after 100 steps",
                "Fine-tuning a 7B model with zero stage 2 and fp16 on 8 GPUs: the loss is fine at first, then it becomes"
                    + " NaN after about 100 optimizer steps, every run."));
    assertEquals(
        Phase.TRAINING,
        training.label(Dimension.PHASE).value(),
        training.label(Dimension.PHASE).evidence());
  }

  @Test
  void aSpellingErrorInTheDocsIsDocumentationNotACrash() {
    Classification c =
        classifier.classify(
            issue(
                "Spelling error in the README of the launcher",
                "The section on hostfiles spells 'slots' as 'slost' in two places, which is confusing for new users"
                    + " who copy the example into their own hostfile."));
    assertEquals(Kind.DOCUMENTATION, c.kind().value(), c.kind().evidence());
    Classification crash =
        classifier.classify(
            issue(
                "Error in README example: deepspeed.initialize raises TypeError",
                "Running the README example fails.\nTraceback (most recent call last):\n  File \"ex.py\", line 3\n"
                    + "TypeError: initialize() got an unexpected keyword argument 'args'"));
    assertEquals(Kind.BUG, crash.kind().value(), crash.kind().evidence());
  }

  @Test
  void aMegatronCommitIsTheVersionItsUsersReport() {
    Classification withCommit =
        classifier.classify(
            IssueText.of(
                "NVIDIA/Megatron-LM",
                7,
                "[BUG] grad norm NaN with MoE",
                "Pretraining a MoE model with commit [3f2a9c1](https://github.com/NVIDIA/Megatron-LM/commit/3f2a9c1e) the"
                    + " grad norm becomes NaN after 200 steps."));
    assertEquals(
        "3f2a9c1", withCommit.versions().get("megatron-lm"), withCommit.versions().toString());
    Classification noHash =
        classifier.classify(
            IssueText.of(
                "NVIDIA/Megatron-LM",
                8,
                "[BUG] grad norm NaN with MoE",
                "Which commit ID should I use? The grad norm becomes NaN after 200 steps of pretraining."));
    assertEquals(null, noHash.versions().get("megatron-lm"), noHash.versions().toString());
    Classification otherRepo =
        classifier.classify(
            IssueText.of(
                "deepspeedai/DeepSpeed",
                9,
                "[BUG] loss NaN",
                "With commit 3f2a9c1e of my own training script the loss becomes NaN after 200 steps of training."));
    assertEquals(null, otherRepo.versions().get("megatron-lm"), otherRepo.versions().toString());
  }
}
