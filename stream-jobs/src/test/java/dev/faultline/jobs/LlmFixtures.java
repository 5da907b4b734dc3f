package dev.faultline.jobs;

import dev.faultline.schemas.Delivery;

/**
 * Fixtures of the language-model tier's tests: short issue texts written for them, and the stub's
 * answers.
 */
public final class LlmFixtures {
  /** The model name configured against the stub. */
  public static final String MODEL = "stub-model";

  /** A valid answer, with codes the offline tiers do not give the fixture texts. */
  public static final String ANSWER =
      """
      {"kind": "BUG", "symptom": "CHECKPOINT_FAILURE", "root_cause": "CONCURRENCY_ERROR", \
      "fix_pattern": "LOGIC_REWRITE", "stage": "FAULT_TOLERANCE", "phase": "TRAINING", "distributed_specific": true}""";

  /** Another valid answer: seeing it in the graph means a request was sent. */
  public static final String OTHER_ANSWER =
      """
      {"kind": "QUESTION", "symptom": "NONE", "root_cause": "UNKNOWN", "fix_pattern": "UNKNOWN", \
      "stage": "UNKNOWN", "phase": "UNKNOWN", "distributed_specific": null}""";

  private LlmFixtures() {}

  /** An opened issue. */
  public static Delivery issue(
      String repo, int number, String title, String body, String at, String... labels) {
    return Deliveries.issue(repo, number, "opened", title, body, "open", at, labels);
  }
}
