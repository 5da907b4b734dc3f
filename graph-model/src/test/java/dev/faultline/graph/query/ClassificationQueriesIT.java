package dev.faultline.graph.query;

import static dev.faultline.graph.testing.GraphFixture.issue;
import static dev.faultline.graph.testing.GraphFixture.pr;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.faultline.graph.testing.GraphFixture;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Stage, symptom, root-cause and fix-pattern aggregates over a graph of eight issues and five PRs.
 */
class ClassificationQueriesIT extends QueryITBase {

  @BeforeEach
  void eightIssues() {
    graph.create(
        bug(
                "o/ds#1",
                "HANG",
                "COMMUNICATION",
                "DISTRIBUTED_COMMUNICATION_ERROR",
                "DISTRIBUTED_TUNING",
                true)
            .closedAt("2024-01-11T00:00:00Z"),
        bug(
                "o/ds#2",
                "HANG",
                "COMMUNICATION",
                "DISTRIBUTED_COMMUNICATION_ERROR",
                "DISTRIBUTED_TUNING",
                true)
            .closedAt("2024-01-03T00:00:00Z"),
        bug(
            "o/ds#3",
            "COMMUNICATION_FAILURE",
            "COMMUNICATION",
            "CONFIGURATION_ERROR",
            "PARAMETER_HANDLING",
            true),
        bug(
                "o/ds#4",
                "OUT_OF_MEMORY",
                "MEMORY",
                "ALLOCATION_STRATEGY_ERROR",
                "CONDITIONAL_LOGIC",
                false)
            .closedAt("2024-01-05T00:00:00Z"),
        bug("o/ds#5", "OUT_OF_MEMORY", "MEMORY", "UNKNOWN", "UNKNOWN", null),
        bug("o/mg#6", "HANG", "INITIALIZATION", "CONFIGURATION_ERROR", "DISTRIBUTED_TUNING", true)
            .framework("megatron-lm")
            .closedAt("2024-01-07T00:00:00Z"),
        bug(
                "o/ds#7",
                "HANG",
                "COMMUNICATION",
                "DISTRIBUTED_COMMUNICATION_ERROR",
                "DISTRIBUTED_TUNING",
                true)
            .state("deleted"),
        issue("o/ds#8").kind("QUESTION").symptom("NONE").createdAt("2024-01-01T00:00:00Z"));
    graph.create(
        pr("o/ds#101").fixes("o/ds#1", "o/ds#2").lines(5L, 3L),
        pr("o/ds#102").fixes("o/ds#4").lines(40L, 20L),
        pr("o/ds#103").fixes("o/ds#3").lines(1L, 1L).merged(false),
        pr("o/mg#104").fixes("o/mg#6").lines(2L, 2L),
        pr("o/ds#105").fixes("o/ds#1").lines(null, null));
  }

  private static GraphFixture.Issue bug(
      String id,
      String symptom,
      String stage,
      String rootCause,
      String fixPattern,
      Boolean distributed) {
    return issue(id)
        .createdAt("2024-01-01T00:00:00Z")
        .symptom(symptom)
        .stage(stage)
        .rootCause(rootCause)
        .fixPattern(fixPattern)
        .distributedSpecific(distributed);
  }

  @Test
  void countsBugsPerStageAndSymptomWithSharesOfTheStage() {
    assertEquals(
        List.of(
            row(
                "stage",
                "COMMUNICATION",
                "symptomClass",
                "HANG",
                "symptom",
                "HANG",
                "issues",
                2L,
                "shareOfStage",
                0.6667),
            row(
                "stage",
                "COMMUNICATION",
                "symptomClass",
                "CRASH",
                "symptom",
                "COMMUNICATION_FAILURE",
                "issues",
                1L,
                "shareOfStage",
                0.3333),
            row(
                "stage",
                "INITIALIZATION",
                "symptomClass",
                "HANG",
                "symptom",
                "HANG",
                "issues",
                1L,
                "shareOfStage",
                1.0),
            row(
                "stage",
                "MEMORY",
                "symptomClass",
                "CRASH",
                "symptom",
                "OUT_OF_MEMORY",
                "issues",
                2L,
                "shareOfStage",
                1.0)),
        counts("stage-symptom-matrix"));
  }

  @Test
  void restrictsTheMatrixToOneFrameworkAndDateRange() {
    assertEquals(
        List.of(
            row(
                "stage",
                "INITIALIZATION",
                "symptomClass",
                "HANG",
                "symptom",
                "HANG",
                "issues",
                1L,
                "shareOfStage",
                1.0)),
        counts("stage-symptom-matrix", "framework", "megatron-lm"));
    assertEquals(List.of(), counts("stage-symptom-matrix", "from", "2024-02-01"));
  }

  @Test
  void ranksRootCausesWithinEachStageLeavingOutUnknown() {
    assertEquals(
        List.of(
            row(
                "stage",
                "COMMUNICATION",
                "rank",
                1L,
                "rootCause",
                "DISTRIBUTED_COMMUNICATION_ERROR",
                "rootCauseGroup",
                "DISTRIBUTED",
                "issues",
                2L,
                "shareOfStage",
                0.6667),
            row(
                "stage",
                "COMMUNICATION",
                "rank",
                2L,
                "rootCause",
                "CONFIGURATION_ERROR",
                "rootCauseGroup",
                "GENERAL",
                "issues",
                1L,
                "shareOfStage",
                0.3333),
            row(
                "stage",
                "INITIALIZATION",
                "rank",
                1L,
                "rootCause",
                "CONFIGURATION_ERROR",
                "rootCauseGroup",
                "GENERAL",
                "issues",
                1L,
                "shareOfStage",
                1.0),
            row(
                "stage",
                "MEMORY",
                "rank",
                1L,
                "rootCause",
                "ALLOCATION_STRATEGY_ERROR",
                "rootCauseGroup",
                "DISTRIBUTED",
                "issues",
                1L,
                "shareOfStage",
                1.0)),
        counts("top-root-causes-per-stage"));
  }

  @Test
  void keepsOnlyTheTopRootCausesPerStageUpToTheLimit() {
    assertEquals(
        List.of(
            "DISTRIBUTED_COMMUNICATION_ERROR", "CONFIGURATION_ERROR", "ALLOCATION_STRATEGY_ERROR"),
        column(counts("top-root-causes-per-stage", "limit", "1"), "rootCause"));
  }

  @Test
  void countsSymptomCauseFixPathsMostFrequentFirst() {
    assertEquals(
        List.of(
            row(
                "symptomClass",
                "HANG",
                "symptom",
                "HANG",
                "rootCause",
                "DISTRIBUTED_COMMUNICATION_ERROR",
                "fixPattern",
                "DISTRIBUTED_TUNING",
                "issues",
                2L,
                "shareOfSymptom",
                0.6667),
            row(
                "symptomClass",
                "CRASH",
                "symptom",
                "COMMUNICATION_FAILURE",
                "rootCause",
                "CONFIGURATION_ERROR",
                "fixPattern",
                "PARAMETER_HANDLING",
                "issues",
                1L,
                "shareOfSymptom",
                1.0),
            row(
                "symptomClass",
                "HANG",
                "symptom",
                "HANG",
                "rootCause",
                "CONFIGURATION_ERROR",
                "fixPattern",
                "DISTRIBUTED_TUNING",
                "issues",
                1L,
                "shareOfSymptom",
                0.3333),
            row(
                "symptomClass",
                "CRASH",
                "symptom",
                "OUT_OF_MEMORY",
                "rootCause",
                "ALLOCATION_STRATEGY_ERROR",
                "fixPattern",
                "CONDITIONAL_LOGIC",
                "issues",
                1L,
                "shareOfSymptom",
                1.0)),
        counts("symptom-cause-fix-paths"));
  }

  @Test
  void dropsRarePathsAndCutsAtTheLimit() {
    assertEquals(
        List.of(2L), column(counts("symptom-cause-fix-paths", "minIssues", "2"), "issues"));
    assertEquals(
        List.of("HANG", "COMMUNICATION_FAILURE"),
        column(counts("symptom-cause-fix-paths", "limit", "2"), "symptom"));
  }

  @Test
  void computesTheDistributedSpecificShareOverallAndPerFramework() {
    assertEquals(
        List.of(
            row(
                "scope",
                "overall",
                "framework",
                null,
                "issues",
                6L,
                "distributedSpecific",
                4L,
                "notDistributedSpecific",
                1L,
                "undetermined",
                1L,
                "share",
                0.8),
            row(
                "scope",
                "framework",
                "framework",
                "deepspeed",
                "issues",
                5L,
                "distributedSpecific",
                3L,
                "notDistributedSpecific",
                1L,
                "undetermined",
                1L,
                "share",
                0.75),
            row(
                "scope",
                "framework",
                "framework",
                "megatron-lm",
                "issues",
                1L,
                "distributedSpecific",
                1L,
                "notDistributedSpecific",
                0L,
                "undetermined",
                0L,
                "share",
                1.0)),
        counts("distributed-specific-share"));
  }

  @Test
  void countsEveryKindWhenKindIsNullAndGivesNoShareWithoutKnownValues() {
    assertEquals(
        List.of(7L, 6L, 1L),
        column(counts("distributed-specific-share", "kind", "null"), "issues"));
    assertEquals(
        List.of(
            row(
                "scope",
                "overall",
                "framework",
                null,
                "issues",
                1L,
                "distributedSpecific",
                0L,
                "notDistributedSpecific",
                0L,
                "undetermined",
                1L,
                "share",
                null),
            row(
                "scope",
                "framework",
                "framework",
                "deepspeed",
                "issues",
                1L,
                "distributedSpecific",
                0L,
                "notDistributedSpecific",
                0L,
                "undetermined",
                1L,
                "share",
                null)),
        counts("distributed-specific-share", "kind", "QUESTION"));
  }

  @Test
  void measuresMedianDaysToCloseAndSmallMergedFixesPerSymptom() {
    assertEquals(
        List.of(
            row(
                "category",
                "HANG",
                "bugs",
                3L,
                "closed",
                3L,
                "medianDaysToClose",
                6.0,
                "fixingPrs",
                2L,
                "smallFixes",
                2L,
                "smallFixShare",
                1.0),
            row(
                "category",
                "OUT_OF_MEMORY",
                "bugs",
                2L,
                "closed",
                1L,
                "medianDaysToClose",
                4.0,
                "fixingPrs",
                1L,
                "smallFixes",
                0L,
                "smallFixShare",
                0.0),
            row(
                "category",
                "COMMUNICATION_FAILURE",
                "bugs",
                1L,
                "closed",
                0L,
                "medianDaysToClose",
                null,
                "fixingPrs",
                0L,
                "smallFixes",
                0L,
                "smallFixShare",
                null)),
        counts("fix-effort-by-category"));
  }

  @Test
  void measuresFixEffortPerStageForOneFrameworkWithAnotherLineLimit() {
    assertEquals(
        List.of(
            row(
                "category",
                "COMMUNICATION",
                "bugs",
                3L,
                "closed",
                2L,
                "medianDaysToClose",
                6.0,
                "fixingPrs",
                1L,
                "smallFixes",
                1L,
                "smallFixShare",
                1.0),
            row(
                "category",
                "MEMORY",
                "bugs",
                2L,
                "closed",
                1L,
                "medianDaysToClose",
                4.0,
                "fixingPrs",
                1L,
                "smallFixes",
                1L,
                "smallFixShare",
                1.0)),
        counts(
            "fix-effort-by-category",
            "dimension",
            "stage",
            "framework",
            "deepspeed",
            "maxLines",
            "100"));
  }
}
