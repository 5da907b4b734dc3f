package dev.faultline.classifier.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.Calibrations;
import dev.faultline.classifier.Confusion;
import dev.faultline.classifier.Distributions;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * How often a language model's answers are right, for one model and prompt version: per labelled
 * dimension the confusion of its answers with a labelled set's codes ({@link Confusion}, rows keyed
 * by the answered code), each row smoothed by a Dirichlet prior of {@link #strength()}
 * pseudo-counts spread as the uncalibrated answer would be ({@link Distributions#priorError}:
 * {@code 1 - epsilon} on the answered code, epsilon by the training mix). An answer's distribution
 * is then its row, P(true code | answered code), marked {@code confusion:<model>/<prompt>}. Made by
 * {@code faultline llm calibrate}, stored beside the answers it belongs to ({@link
 * AnswerCache#putCalibration}; the answers topic through {@code llm push}). Counts only, no text.
 * Immutable.
 *
 * @param model the model the answers came from
 * @param promptVersion the prompt version they were asked with
 * @param epsilon the prior's error rate
 * @param strength the prior's pseudo-counts per row
 * @param fittedAt when it was fitted (ISO-8601)
 * @param data what it was fitted on (a file name and counts, for people)
 * @param confusions every labelled dimension's confusion
 */
public record LlmCalibration(
    String model,
    String promptVersion,
    double epsilon,
    double strength,
    String fittedAt,
    String data,
    Map<Dimension, Confusion> confusions) {

  /** The format written; a reader refuses another. */
  public static final int FORMAT = 1;

  /** The record type in the JSON, so a calibration is never taken for an answer. */
  public static final String TYPE = "faultline-llm-calibration";

  /** The prior's default pseudo-counts per row. */
  public static final double DEFAULT_STRENGTH = 2.0;

  public LlmCalibration {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(promptVersion, "promptVersion");
    confusions = new EnumMap<>(confusions);
    for (Dimension d : Dimension.LABELLED) {
      if (!confusions.containsKey(d)) {
        throw new IllegalArgumentException("no confusion of " + d.key());
      }
    }
  }

  /** The prior row of an answered code of {@code d}: the uncalibrated answer's distribution. */
  public static Function<String, Map<String, Double>> base(Dimension d, double epsilon) {
    return answered -> Distributions.priorError(d, d.parse(answered), epsilon);
  }

  /**
   * Fits one model's calibration.
   *
   * @param pairs each labelled item's answer and its true codes (dimension to code, {@code "null"}
   *     for distributed-specific "cannot tell"); a dimension missing from the codes is not counted
   */
  public static LlmCalibration fit(
      String model,
      String promptVersion,
      List<Map.Entry<Answer, Map<Dimension, String>>> pairs,
      double epsilon,
      double strength,
      String fittedAt,
      String data) {
    Map<Dimension, Confusion> out = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.LABELLED) {
      List<Confusion.Observation> obs = new ArrayList<>();
      for (Map.Entry<Answer, Map<Dimension, String>> p : pairs) {
        String truth = p.getValue().get(d);
        if (truth != null) {
          obs.add(new Confusion.Observation(List.of(Dimension.codeOf(p.getKey().code(d))), truth));
        }
      }
      out.put(d, Confusion.fit(d, obs, strength, base(d, epsilon)));
    }
    return new LlmCalibration(model, promptVersion, epsilon, strength, fittedAt, data, out);
  }

  /** The marker of the answers it calibrates: {@code confusion:<model>/<prompt>}. */
  public String marker() {
    return Calibrations.confusion(model, promptVersion);
  }

  /** The distribution of an answered code of a labelled dimension. */
  public Map<String, Double> row(Dimension d, Object answered) {
    return confusions.get(d).row(Dimension.codeOf(answered));
  }

  /** The JSON of a cache file and of a record of the answers topic. */
  public ObjectNode toJson(ObjectMapper json) {
    ObjectNode o = json.createObjectNode();
    o.put("type", TYPE);
    o.put("format", FORMAT);
    o.put("model", model);
    o.put("prompt_version", promptVersion);
    o.put("fitted_at", fittedAt);
    o.put("data", data);
    ObjectNode prior = o.putObject("prior");
    prior.put("epsilon", epsilon);
    prior.put("strength", strength);
    prior.put("spread", "training mix (rules-prior.json)");
    ObjectNode dims = o.putObject("dimensions");
    for (Dimension d : Dimension.LABELLED) {
      dims.set(d.key(), confusions.get(d).toJson(json));
    }
    return o;
  }

  /** Whether a JSON object is a calibration (its {@code type}). */
  public static boolean isCalibration(JsonNode n) {
    return n != null && TYPE.equals(n.path("type").asText());
  }

  /**
   * Reads what {@link #toJson} wrote.
   *
   * @throws IllegalArgumentException not a calibration, another format, a bad row
   */
  public static LlmCalibration fromJson(JsonNode o) {
    if (!isCalibration(o)) {
      throw new IllegalArgumentException("not a language-model calibration (type " + TYPE + ")");
    }
    if (o.path("format").asInt(-1) != FORMAT) {
      throw new IllegalArgumentException(
          "calibration format " + o.path("format") + ", this version reads " + FORMAT);
    }
    double epsilon = o.path("prior").path("epsilon").asDouble(-1);
    double strength = o.path("prior").path("strength").asDouble(-1);
    Map<Dimension, Confusion> confusions = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.LABELLED) {
      JsonNode rows = o.path("dimensions").get(d.key());
      if (rows == null || !rows.isArray()) {
        throw new IllegalArgumentException("calibration: no rows for " + d.key());
      }
      confusions.put(d, Confusion.fromJson(d, rows, strength, base(d, epsilon)));
    }
    return new LlmCalibration(
        o.path("model").asText(),
        o.path("prompt_version").asText(),
        epsilon,
        strength,
        o.path("fitted_at").asText(""),
        o.path("data").asText(""),
        confusions);
  }
}
