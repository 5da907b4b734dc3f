package dev.faultline.classifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Probability distributions over a dimension's codes ({@link Dimension#distributionCodes()}): what
 * each tier gives and how the edges print them. Each label says what its distribution rests on
 * ({@link Label#calibration()}, {@link Calibrations}).
 *
 * <ul>
 *   <li>The learned layer: its calibrated class probabilities (the softmax at the fitted
 *       temperature), kept also where the answer abstains ({@code cv:<version>}).
 *   <li>The rules: the row of their cross-validated confusion for the answer they gave ({@link
 *       dev.faultline.classifier.rules.RulesCalibration}, {@code cv:rules-<version>}).
 *   <li>A language model's answer: the row of the confusion measured for its model and prompt
 *       version ({@code confusion:<model>/<prompt>}), else a stated prior error ({@link
 *       #priorError}, {@code prior:<epsilon>}).
 *   <li>A person's label: a point mass on the value ({@code human}).
 * </ul>
 *
 * <p>The edges print every probability rounded to {@link #DECIMALS} decimals ({@link #rounded}), so
 * outputs are stable across platforms and runs.
 */
public final class Distributions {

  /** Decimals of a probability at the edges (graph, topic, batch output). */
  public static final int DECIMALS = 4;

  /** The training mix: the spread of a prior error, and the base of every confusion row's prior. */
  public static final String PRIOR_RESOURCE = "/dev/faultline/classifier/rules-prior.json";

  private static final Map<Dimension, Map<String, Double>> PRIOR = loadPrior();

  private static final Map<String, String> SYMPTOM_CLASSES = loadSymptomClasses();

  private Distributions() {}

  /**
   * The distribution of a label of a dimension, every code present in the dimension's order: the
   * label's own, else a point mass on its value.
   */
  public static Map<String, Double> of(Dimension d, Label<?> l) {
    Map<String, Double> out = new LinkedHashMap<>();
    Map<String, Double> own = l.distribution();
    String value = Dimension.codeOf(l.value());
    for (String code : d.distributionCodes()) {
      double p = own != null ? own.getOrDefault(code, 0.0) : code.equals(value) ? 1.0 : 0.0;
      out.put(code, p);
    }
    return out;
  }

  /** {@link #of} rounded to {@link #DECIMALS} decimals. */
  public static Map<String, Double> rounded(Dimension d, Label<?> l) {
    Map<String, Double> out = new LinkedHashMap<>();
    of(d, l).forEach((code, p) -> out.put(code, round(p)));
    return out;
  }

  /** {@link #rounded} as a list aligned with {@link Dimension#distributionCodes()}. */
  public static List<Double> aligned(Dimension d, Label<?> l) {
    return new ArrayList<>(rounded(d, l).values());
  }

  /** A probability rounded to {@link #DECIMALS} decimals. */
  public static double round(double p) {
    double scale = Math.pow(10, DECIMALS);
    return Math.round(p * scale) / scale;
  }

  /**
   * A model's class probabilities as a distribution over the dimension's codes (codes the model has
   * no class for get 0).
   */
  public static Map<String, Double> ofClasses(Dimension d, List<String> classes, double[] p) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String code : d.distributionCodes()) {
      int k = classes.indexOf(code);
      out.put(code, k < 0 ? 0.0 : p[k]);
    }
    return out;
  }

  /**
   * An answer with a stated prior error and no measured calibration ({@code prior:<epsilon>}):
   * {@code 1 - epsilon} on the code of {@code value}, {@code epsilon} over the other codes in
   * proportion to the training mix ({@link #prior}). Never a point mass for epsilon &gt; 0.
   *
   * @throws IllegalArgumentException epsilon outside [0, 1]
   */
  public static Map<String, Double> priorError(Dimension d, Object value, double epsilon) {
    if (!(epsilon >= 0 && epsilon <= 1)) {
      throw new IllegalArgumentException("a prior error must be in [0, 1], was " + epsilon);
    }
    return spread(d, value, 1.0 - epsilon);
  }

  /**
   * {@code confidence} on the code of {@code value}, the rest over the other codes in proportion to
   * the training mix.
   */
  public static Map<String, Double> spread(Dimension d, Object value, double confidence) {
    String code = Dimension.codeOf(value);
    Map<String, Double> prior = prior(d);
    double others = 0;
    for (Map.Entry<String, Double> e : prior.entrySet()) {
      if (!e.getKey().equals(code)) {
        others += e.getValue();
      }
    }
    Map<String, Double> out = new LinkedHashMap<>();
    for (Map.Entry<String, Double> e : prior.entrySet()) {
      out.put(
          e.getKey(),
          e.getKey().equals(code)
              ? confidence
              : others <= 0 ? 0.0 : (1.0 - confidence) * e.getValue() / others);
    }
    return out;
  }

  /**
   * The symptom classes' distribution of a symptom distribution: each class sums its symptoms'
   * probabilities (NONE and UNKNOWN map to themselves), every class present in its order.
   */
  public static Map<String, Double> symptomClasses(Map<String, Double> symptoms) {
    Map<String, Double> p = new LinkedHashMap<>();
    for (String k : Dimension.SYMPTOM_CLASS.distributionCodes()) {
      p.put(k, 0.0);
    }
    symptoms.forEach((code, q) -> p.merge(symptomClassOf(code), q, Double::sum));
    return p;
  }

  /** The class of a symptom code (NONE and UNKNOWN their own) in the taxonomy resource. */
  public static String symptomClassOf(String symptom) {
    return symptom.equals("NONE") || symptom.equals("UNKNOWN")
        ? symptom
        : SYMPTOM_CLASSES.getOrDefault(symptom, "UNKNOWN");
  }

  /**
   * The training mix of a dimension: each code's share of the gold labels of {@code
   * ../shared/train}, add-one smoothed (a code never seen there keeps a little mass).
   */
  public static Map<String, Double> prior(Dimension d) {
    return PRIOR.get(d);
  }

  private static Map<String, String> loadSymptomClasses() {
    dev.faultline.schemas.taxonomy.Taxonomy t = dev.faultline.schemas.taxonomy.Taxonomy.load();
    Map<String, String> out = new java.util.HashMap<>();
    for (String s : Dimension.SYMPTOM.symbols()) {
      t.symptomClassOf(s).ifPresent(c -> out.put(s, c));
    }
    return Collections.unmodifiableMap(out);
  }

  private static Map<Dimension, Map<String, Double>> loadPrior() {
    JsonNode counts;
    try (InputStream in = Distributions.class.getResourceAsStream(PRIOR_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(PRIOR_RESOURCE + " is not on the class path");
      }
      counts = new ObjectMapper().readTree(in).path("counts");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + PRIOR_RESOURCE, e);
    }
    Map<Dimension, Map<String, Double>> out = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.values()) {
      JsonNode c = counts.path(d.field());
      double total = 0;
      for (String code : d.distributionCodes()) {
        total += c.path(code).asDouble(0) + 1;
      }
      Map<String, Double> p = new LinkedHashMap<>();
      for (String code : d.distributionCodes()) {
        p.put(code, (c.path(code).asDouble(0) + 1) / total);
      }
      out.put(d, Collections.unmodifiableMap(p));
    }
    return out;
  }
}
