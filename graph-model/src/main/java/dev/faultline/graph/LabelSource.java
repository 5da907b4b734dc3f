package dev.faultline.graph;

/**
 * Where a label in the graph came from: {@code rules}, {@code model} (the learned layer over the
 * rules), {@code llm:<model>} (a language model's validated answer) or {@code human} (a GitHub
 * label a person set). Recorded on the issue per dimension ({@code kindSource}, {@code
 * symptomSource}, …) and on each classification edge ({@code source}). Precedence: a person's label
 * over every tier, a language model's over the offline tiers.
 */
public final class LabelSource {
  public static final String RULES = "rules";
  public static final String MODEL = "model";
  public static final String HUMAN = "human";

  /** Prefix of a language model's source; the model's name follows. */
  public static final String LLM_PREFIX = "llm:";

  /** Rank of a row whose labels come from an offline tier (rules or the learned layer). */
  public static final int OFFLINE_RANK = 0;

  /**
   * Rank of a row whose labels come from a language model: it wins over an offline row of the same
   * issue state.
   */
  public static final int LLM_RANK = 1;

  private LabelSource() {}

  /** The source of a language model's labels. */
  public static String llm(String model) {
    return LLM_PREFIX + model;
  }

  /** Whether a source is a language model's. */
  public static boolean isLlm(String source) {
    return source != null && source.startsWith(LLM_PREFIX);
  }

  /**
   * The precedence rank of a row from a tier: {@link #LLM_RANK} for a language model, else {@link
   * #OFFLINE_RANK}.
   */
  public static int rankOf(String tierSource) {
    return isLlm(tierSource) ? LLM_RANK : OFFLINE_RANK;
  }
}
