package dev.faultline.estimate.scope;

import dev.faultline.estimate.scope.StudyFigures.Issue;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The seed studies' figures (../shared/taxonomy/CODEBOOK.md §10) as probabilities of an issue: a
 * ratio figure's denominator and numerator (the numerator's event a part of the denominator's), a
 * ranked figure's base. Each is P(bug) times probabilities of codes given a bug, so P(bug) counts
 * once ({@link StudyFigures}).
 */
final class Figures {
  private Figures() {}

  static final Set<String> NO_CODE = Set.of("UNKNOWN", "NONE", "null");

  private static final Set<String> PHASE_KNOWN = Set.of("TRAINING", "INFERENCE");

  private static final Set<String> DISTRIBUTED_CAUSES =
      Set.of(
          "ALLOCATION_STRATEGY_ERROR",
          "DISTRIBUTED_COMMUNICATION_ERROR",
          "DISTRIBUTED_TENSOR_ERROR",
          "CONCURRENCY_ERROR");

  private static final Set<String> KNOWN_CAUSES = known(Dimension.ROOT_CAUSE);
  private static final Set<String> KNOWN_FIXES = known(Dimension.FIX_PATTERN);

  /**
   * A ratio figure: the probability of an issue's being in the denominator, and of its being in the
   * numerator given that.
   */
  record Ratio(
      String id,
      String study,
      String statement,
      Double published,
      String definition,
      ToDoubleFunction<Issue> denominator,
      ToDoubleFunction<Issue> numerator) {}

  /** A ranked figure: the top codes of a dimension among the known codes of its base. */
  record Ranked(
      String id,
      String study,
      String statement,
      String definition,
      Dimension dimension,
      ToDoubleFunction<Issue> scope,
      int top) {}

  private static Set<String> known(Dimension d) {
    return d.distributionCodes().stream()
        .filter(c -> !NO_CODE.contains(c))
        .collect(java.util.stream.Collectors.toSet());
  }

  private static double smallFix(Issue i) {
    return i.fixLines() != null && i.fixLines() <= 10 ? 1 : 0;
  }

  static final List<Ratio> RATIOS =
      List.of(
          new Ratio(
              "p1-small-fixes",
              "P1",
              "48% of bug fixes change at most 10 lines of code",
              0.48,
              "bug reports with a merged fix: its changed lines (additions + deletions, the smallest fix) <= 10",
              i -> i.fixLines() == null ? 0 : i.bug(),
              i -> smallFix(i)),
          new Ratio(
              "p1-training-vs-inference",
              "P1",
              "training-phase bugs are about twice as frequent as inference-phase bugs (about 2/3 of the two)",
              2.0 / 3,
              "bugs whose phase is TRAINING or INFERENCE: the share of TRAINING",
              i -> i.bug() * i.given(Dimension.PHASE, PHASE_KNOWN),
              i -> i.given(Dimension.PHASE, "TRAINING") / i.given(Dimension.PHASE, PHASE_KNOWN)),
          new Ratio(
              "p1-hangs-in-training",
              "P1",
              "hang bugs occur only in training",
              1.0,
              "HANG bugs whose phase is TRAINING or INFERENCE: the share of TRAINING",
              i ->
                  i.bug()
                      * i.given(Dimension.SYMPTOM, "HANG")
                      * i.given(Dimension.PHASE, PHASE_KNOWN),
              i -> i.given(Dimension.PHASE, "TRAINING") / i.given(Dimension.PHASE, PHASE_KNOWN)),
          new Ratio(
              "p1-long-open-tail",
              "P1",
              "6% of bugs stay open for more than a month with 10 or more comments",
              0.06,
              "bugs open more than 30 days (until closed, or until now) with at least 10 comments",
              Issue::bug,
              i -> i.longOpen() ? 1 : 0),
          new Ratio(
              "p1-distributed-root-causes",
              "P1",
              "four root causes exist only because the framework is distributed (allocation strategy,"
                  + " distributed communication, distributed tensor, concurrency); no share stated",
              null,
              "bugs with a known root cause: the share of the four distributed-specific causes",
              i -> i.bug() * i.given(Dimension.ROOT_CAUSE, KNOWN_CAUSES),
              i ->
                  i.given(Dimension.ROOT_CAUSE, DISTRIBUTED_CAUSES)
                      / i.given(Dimension.ROOT_CAUSE, KNOWN_CAUSES)),
          new Ratio(
              "p2-distributed-specific",
              "P2",
              "45.1% of bug symptoms are distributed-specific",
              0.451,
              "bugs where distributed-specific is known: the share of true",
              i -> i.bug() * i.given(Dimension.DISTRIBUTED_SPECIFIC, Set.of("true", "false")),
              i ->
                  i.given(Dimension.DISTRIBUTED_SPECIFIC, "true")
                      / i.given(Dimension.DISTRIBUTED_SPECIFIC, Set.of("true", "false"))),
          new Ratio(
              "p2-setup-distributed",
              "P2",
              "95% of the issues in the communication-setup stage are distributed-specific",
              0.95,
              "SETUP_FAILURE bugs (launcher, rendezvous, process-group and NCCL init) where"
                  + " distributed-specific is known: the share of true",
              i ->
                  i.bug()
                      * i.given(Dimension.SYMPTOM, "SETUP_FAILURE")
                      * i.given(Dimension.DISTRIBUTED_SPECIFIC, Set.of("true", "false")),
              i ->
                  i.given(Dimension.DISTRIBUTED_SPECIFIC, "true")
                      / i.given(Dimension.DISTRIBUTED_SPECIFIC, Set.of("true", "false"))),
          new Ratio(
              "p2-version-or-tuning-fixes",
              "P2",
              "over 60% of the cases are resolved by version and dependency management or by"
                  + " distributed tuning",
              0.60,
              "bugs with a known fix pattern: the share of VERSION_DEPENDENCY_MANAGEMENT or"
                  + " DISTRIBUTED_TUNING",
              i -> i.bug() * i.given(Dimension.FIX_PATTERN, KNOWN_FIXES),
              i ->
                  i.given(
                          Dimension.FIX_PATTERN,
                          Set.of("VERSION_DEPENDENCY_MANAGEMENT", "DISTRIBUTED_TUNING"))
                      / i.given(Dimension.FIX_PATTERN, KNOWN_FIXES)));

  static final List<Ranked> RANKED =
      List.of(
          new Ranked(
              "p1-top-symptoms",
              "P1",
              "most frequent symptoms: crash, incorrect functionality, build failure",
              "bugs with a known symptom class: the three most frequent classes",
              Dimension.SYMPTOM_CLASS,
              Issue::bug,
              3),
          new Ranked(
              "p1-top-root-causes",
              "P1",
              "most frequent root causes: API misuse, incorrect implementation, configuration error,"
                  + " missing precondition",
              "bugs with a known root cause: the four most frequent",
              Dimension.ROOT_CAUSE,
              Issue::bug,
              4),
          new Ranked(
              "p1-low-effort-fixes",
              "P1",
              "the common low-effort fixes: conditional logic, parameter handling, version"
                  + " compatibility handling",
              "bugs with a merged fix of at most 10 changed lines and a known fix pattern: the three"
                  + " most frequent patterns",
              Dimension.FIX_PATTERN,
              i -> i.bug() * smallFix(i),
              3),
          new Ranked(
              "p2-top-distributed-symptoms",
              "P2",
              "the three most frequent distributed-specific symptom types: setup failures, memory"
                  + " anomalies, performance anomalies",
              "distributed-specific bugs with a known symptom: the three most frequent",
              Dimension.SYMPTOM,
              i -> i.bug() * i.given(Dimension.DISTRIBUTED_SPECIFIC, "true"),
              3));
}
