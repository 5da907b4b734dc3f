package dev.faultline.jobs;

import dev.faultline.classifier.llm.StubChatServer;
import dev.faultline.schemas.Delivery;
import java.util.HashMap;
import java.util.Map;

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

  /**
   * The tier's {@code FAULTLINE_LLM_*} settings: {@code endpoint}, {@code model} and the given
   * further pairs (name, value, name, value, …).
   */
  public static Map<String, String> settings(String endpoint, String model, String... pairs) {
    Map<String, String> settings = new HashMap<>();
    settings.put("FAULTLINE_LLM_ENDPOINT", endpoint);
    settings.put("FAULTLINE_LLM_MODEL", model);
    for (int i = 0; i < pairs.length; i += 2) {
      settings.put(pairs[i], pairs[i + 1]);
    }
    return settings;
  }

  /** {@link #settings(String, String, String...)} against {@code stub} and {@link #MODEL}. */
  public static Map<String, String> settings(StubChatServer stub, String... pairs) {
    return settings(stub.endpoint().toString(), MODEL, pairs);
  }

  /** An opened issue. */
  public static Delivery issue(
      String repo, int number, String title, String body, String at, String... labels) {
    return Deliveries.issue(repo, number, "opened", title, body, "open", at, labels);
  }
}
