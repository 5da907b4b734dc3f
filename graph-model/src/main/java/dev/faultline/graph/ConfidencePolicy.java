package dev.faultline.graph;

import dev.faultline.artefact.LearnedArtefact;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * How sure a label must be to be counted: the minimum confidence per classification dimension. The
 * graph keeps every label with its confidence (the calibrated probability that the label is right);
 * counting queries, the dashboard and the statistics count by default only labels at or above the
 * bar of their dimension and report the coverage (how many issues in scope have labels that pass)
 * beside each count. A label a human gave (a GitHub label, listed in the issue's {@code
 * humanGiven}) always passes; a label without a confidence passes only a bar of 0.
 *
 * <p>{@link #CALIBRATED_BARS}, read from the shipped learned artefact, are the default bars: per
 * dimension, the confidence at which the classifier's cross-validated precision reaches {@link
 * #TARGET_PRECISION}.
 *
 * @param mode where the bars come from
 * @param bars dimension name ({@link #DIMENSIONS}) to the minimum confidence, 0..1; every dimension
 *     present
 */
public record ConfidencePolicy(Mode mode, Map<String, Double> bars)
    implements java.io.Serializable {

  /** The precision the calibrated bars are chosen for. */
  public static final double TARGET_PRECISION = LearnedArtefact.TARGET_PRECISION;

  /**
   * The classification dimensions that carry a confidence ({@link Dimension#LABELLED}), by their
   * key.
   */
  public static final List<String> DIMENSIONS =
      Dimension.LABELLED.stream().map(Dimension::key).toList();

  /**
   * Per dimension, the confidence at which cross-validated precision reaches {@link
   * #TARGET_PRECISION}: read from the shipped learned artefact ({@link
   * LearnedArtefact#calibratedBars()}: the {@code precisionLevel} of each dimension, rounded up to
   * 3 decimals), so retraining moves them with the artefact.
   */
  public static final Map<String, Double> CALIBRATED_BARS = byKey(LearnedArtefact.calibratedBars());

  /**
   * The system property that sets the server default ({@link #parse} syntax); it wins over the
   * environment.
   */
  public static final String PROPERTY = "faultline.minConfidence";

  /** The environment variable that sets the server default ({@link #parse} syntax). */
  public static final String ENVIRONMENT = "FAULTLINE_MIN_CONFIDENCE";

  /** Where the bars of a policy come from. */
  public enum Mode {
    /** {@link #CALIBRATED_BARS}: each dimension at its bar for {@link #TARGET_PRECISION}. */
    CALIBRATED,
    /** One bar given for every dimension. */
    FIXED,
    /** No bar: every label counts. */
    ALL
  }

  public ConfidencePolicy {
    Objects.requireNonNull(mode, "mode");
    bars = orderedBars(bars);
  }

  /** The per-dimension bars for {@link #TARGET_PRECISION}. */
  public static ConfidencePolicy calibrated() {
    return new ConfidencePolicy(Mode.CALIBRATED, CALIBRATED_BARS);
  }

  /** Every label, whatever its confidence. */
  public static ConfidencePolicy all() {
    Map<String, Double> zero = new LinkedHashMap<>();
    DIMENSIONS.forEach(d -> zero.put(d, 0.0));
    return new ConfidencePolicy(Mode.ALL, zero);
  }

  /** One bar for every dimension; 0 is {@link #all()}. */
  public static ConfidencePolicy atLeast(double minConfidence) {
    if (!(minConfidence >= 0.0 && minConfidence <= 1.0)) {
      throw new IllegalArgumentException(
          "minConfidence is "
              + minConfidence
              + ": give a number from 0 to 1, 'all' or 'calibrated'");
    }
    if (minConfidence == 0.0) {
      return all();
    }
    Map<String, Double> same = new LinkedHashMap<>();
    DIMENSIONS.forEach(d -> same.put(d, minConfidence));
    return new ConfidencePolicy(Mode.FIXED, same);
  }

  /**
   * A policy from its text form: a number from 0 to 1 (the bar of every dimension; 0 = every
   * label), {@code all} (every label), {@code calibrated} (the per-dimension bars), or {@code
   * default}, blank or null ({@code fallback}).
   *
   * @throws IllegalArgumentException naming the value and what is accepted
   */
  public static ConfidencePolicy parse(String text, ConfidencePolicy fallback) {
    if (text == null || text.isBlank()) {
      return fallback;
    }
    String t = text.strip().toLowerCase(Locale.ROOT);
    switch (t) {
      case "default":
        return fallback;
      case "all":
        return all();
      case "calibrated":
        return calibrated();
      default:
        try {
          return atLeast(Double.parseDouble(t));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "minConfidence is '"
                  + text.strip()
                  + "': give a number from 0 to 1, 'all' or 'calibrated'",
              e);
        }
    }
  }

  /**
   * The server default: system property {@value #PROPERTY}, else environment variable {@value
   * #ENVIRONMENT}, else {@link #calibrated()}.
   */
  public static ConfidencePolicy fromEnvironment(
      Map<String, String> environment, Properties properties) {
    String text = properties.getProperty(PROPERTY);
    if (text == null || text.isBlank()) {
      text = environment.get(ENVIRONMENT);
    }
    try {
      return parse(text, calibrated());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Bad default confidence bar (" + PROPERTY + " / " + ENVIRONMENT + "): " + e.getMessage(),
          e);
    }
  }

  /** The bar of one dimension; {@code symptomClass} shares the symptom's. */
  public double bar(String dimension) {
    Double bar =
        bars.get(Dimension.ofKey(dimension).map(d -> d.labelDimension().key()).orElse(dimension));
    if (bar == null) {
      throw new IllegalArgumentException(
          "no confidence dimension '" + dimension + "': use one of " + DIMENSIONS);
    }
    return bar;
  }

  /** The bar of one dimension; the symptom class shares the symptom's. */
  public double bar(Dimension dimension) {
    return bar(dimension.key());
  }

  /** {@link #passes(String, Double, boolean)} of a dimension. */
  public boolean passes(Dimension dimension, Double confidence, boolean humanGiven) {
    return passes(dimension.key(), confidence, humanGiven);
  }

  /**
   * Whether a label passes: given by a human, or its confidence at or above the bar (a missing
   * confidence passes only a bar of 0). The query library's Cypher applies the same rule.
   */
  public boolean passes(String dimension, Double confidence, boolean humanGiven) {
    double bar = bar(dimension);
    return humanGiven || bar <= 0.0 || (confidence != null && confidence >= bar);
  }

  /** The Cypher parameter of the query library: dimension name to bar. */
  public Map<String, Object> toParameter() {
    return new LinkedHashMap<>(bars);
  }

  /** What the bar means, for people: "≥ 90% precision", "confidence ≥ 0.75" or "all labels". */
  public String describe() {
    return switch (mode) {
      case CALIBRATED -> "≥ " + Math.round(TARGET_PRECISION * 100) + "% precision";
      case FIXED -> "confidence ≥ " + trim(bars.values().iterator().next());
      case ALL -> "all labels";
    };
  }

  /**
   * The policy as an API echoes it: {@code mode}, {@code targetPrecision}, {@code bars}, {@code
   * text}.
   */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mode", mode.name().toLowerCase(Locale.ROOT));
    m.put("targetPrecision", mode == Mode.CALIBRATED ? TARGET_PRECISION : null);
    m.put("bars", bars);
    m.put("text", describe());
    return m;
  }

  /** The text form {@link #parse} reads back. */
  public String toText() {
    return switch (mode) {
      case CALIBRATED -> "calibrated";
      case FIXED -> trim(bars.values().iterator().next());
      case ALL -> "all";
    };
  }

  private static String trim(double value) {
    String s = Double.toString(value);
    return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
  }

  private static Map<String, Double> byKey(Map<Dimension, Double> bars) {
    Map<String, Double> m = new LinkedHashMap<>();
    bars.forEach((d, bar) -> m.put(d.key(), bar));
    return orderedBars(m);
  }

  private static Map<String, Double> orderedBars(Map<String, Double> bars) {
    Objects.requireNonNull(bars, "bars");
    Map<String, Double> ordered = new LinkedHashMap<>();
    for (String d : DIMENSIONS) {
      Double bar = bars.get(d);
      if (bar == null || !(bar >= 0.0 && bar <= 1.0)) {
        throw new IllegalArgumentException(
            "confidence bar of '" + d + "' is " + bar + ": give a number from 0 to 1");
      }
      ordered.put(d, bar);
    }
    if (!DIMENSIONS.containsAll(bars.keySet())) {
      throw new IllegalArgumentException(
          "unknown confidence dimensions in " + bars.keySet() + ": use " + DIMENSIONS);
    }
    return java.util.Collections.unmodifiableMap(ordered);
  }
}
