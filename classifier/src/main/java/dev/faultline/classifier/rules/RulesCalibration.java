package dev.faultline.classifier.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.Calibrations;
import dev.faultline.classifier.Confusion;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.Label;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The rules' probabilities: per labelled dimension, the confusion of the rules' answers with the
 * gold labels of the training corpus ({@link Confusion}), counted by {@code faultline train
 * --rules-confusion} on {@code ../shared/train} and shipped as the resource {@link #RESOURCE}
 * (counts only). A rules label's distribution is the row of its answer, refined by the parts the
 * artefact names ({@link Part}: the kind of item, a band of the rules' own confidence), each row
 * smoothed toward its answer's row and that toward the training mix ({@link Distributions#prior});
 * its confidence is the row's probability of the answer, its marker {@code cv:<rules version>}.
 * Which parts and how strong a prior were chosen on grouped folds of the training corpus (the
 * artefact's {@code report}); the rules were not fitted to that corpus, so its counts are out of
 * sample for them.
 *
 * <p>Immutable and thread-safe.
 */
public final class RulesCalibration {

  /** The artefact on the class path. */
  public static final String RESOURCE = "/dev/faultline/classifier/rules-confusion.json";

  /** The parts a row key may have after the answered code. */
  public enum Part {
    /** {@code issue} or {@code change} (a merged pull request or commit). */
    ITEM,
    /** The band of the rules' own confidence: {@code low}, {@code mid} or {@code high}. */
    CONFIDENCE
  }

  private final String rulesVersion;
  private final List<Part> parts;
  private final double[] bands;
  private final double strength;
  private final Map<Dimension, Confusion> confusions;

  /**
   * @param bands the upper limits of the {@code low} and {@code mid} confidence bands
   */
  public RulesCalibration(
      String rulesVersion,
      List<Part> parts,
      double[] bands,
      double strength,
      Map<Dimension, Confusion> confusions) {
    this.rulesVersion = Objects.requireNonNull(rulesVersion, "rulesVersion");
    this.parts = List.copyOf(parts);
    this.bands = bands.clone();
    this.strength = strength;
    this.confusions = new EnumMap<>(confusions);
    for (Dimension d : Dimension.LABELLED) {
      if (!this.confusions.containsKey(d)) {
        throw new IllegalArgumentException("no confusion of " + d.key());
      }
    }
  }

  private static final class Holder {
    static final RulesCalibration BUNDLED = load();
  }

  /** The shipped artefact. */
  public static RulesCalibration bundled() {
    return Holder.BUNDLED;
  }

  /**
   * A calibration with no counts (every row the training mix): what the tool that counts the rules'
   * confusion runs the rules with.
   */
  public static RulesCalibration uncounted(String rulesVersion) {
    Map<Dimension, Confusion> empty = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.LABELLED) {
      empty.put(d, Confusion.fit(d, List.of(), 1.0, base(d)));
    }
    return new RulesCalibration(rulesVersion, List.of(), new double[] {0.5, 0.75}, 1.0, empty);
  }

  /** The prior row of every answer: the training mix, whatever the answer. */
  public static java.util.function.Function<String, Map<String, Double>> base(Dimension d) {
    return answered -> Distributions.prior(d);
  }

  /** The rules version the counts were made with. */
  public String rulesVersion() {
    return rulesVersion;
  }

  /** The parts of a row key after the answered code. */
  public List<Part> parts() {
    return parts;
  }

  /** The prior's pseudo-counts per row. */
  public double strength() {
    return strength;
  }

  /** One dimension's confusion. */
  public Confusion confusion(Dimension d) {
    return confusions.get(d);
  }

  /** The marker of the rules' labels: {@code cv:<rules version>}. */
  public String marker() {
    return Calibrations.cv(rulesVersion);
  }

  /** The row key of an answer: its code, then the artefact's parts. */
  public List<String> key(Object value, double confidence, boolean change) {
    return key(Dimension.codeOf(value), confidence, change, parts, bands);
  }

  /** The row key of an answer under the given parts and bands. */
  public static List<String> key(
      String code, double confidence, boolean change, List<Part> parts, double[] bands) {
    List<String> k = new ArrayList<>(1 + parts.size());
    k.add(code);
    for (Part p : parts) {
      k.add(
          switch (p) {
            case ITEM -> change ? "change" : "issue";
            case CONFIDENCE ->
                confidence < bands[0] ? "low" : confidence < bands[1] ? "mid" : "high";
          });
    }
    return k;
  }

  /**
   * A rules label with its row's distribution, that distribution's probability of its code as its
   * confidence and the marker {@code cv:<rules version>}; a person's label unchanged.
   */
  public <T> Label<T> calibrate(Dimension d, Label<T> l, boolean change) {
    if (l.humanGiven()) {
      return l;
    }
    Map<String, Double> row = confusions.get(d).row(key(l.value(), l.confidence(), change));
    return l.calibrated(row, marker());
  }

  /** The artefact as JSON, with a free-form {@code report} (may be null). */
  public ObjectNode toJson(ObjectMapper json, String description, JsonNode report) {
    ObjectNode o = json.createObjectNode();
    o.put("description", description);
    o.put("rulesVersion", rulesVersion);
    ArrayNode k = o.putArray("key");
    k.add("answer");
    parts.forEach(p -> k.add(p.name().toLowerCase(java.util.Locale.ROOT)));
    ArrayNode b = o.putArray("confidenceBands");
    for (double x : bands) {
      b.add(x);
    }
    o.put("strength", strength);
    o.put("base", "training mix (rules-prior.json)");
    ObjectNode dims = o.putObject("dimensions");
    for (Dimension d : Dimension.LABELLED) {
      dims.set(d.key(), confusions.get(d).toJson(json));
    }
    if (report != null) {
      o.set("report", report);
    }
    return o;
  }

  /**
   * Reads an artefact.
   *
   * @throws IllegalArgumentException a malformed one (names what)
   */
  public static RulesCalibration fromJson(JsonNode o) {
    List<Part> parts = new ArrayList<>();
    JsonNode key = o.path("key");
    if (!"answer".equals(key.path(0).asText())) {
      throw new IllegalArgumentException("rules confusion: key must start with 'answer'");
    }
    for (int i = 1; i < key.size(); i++) {
      parts.add(Part.valueOf(key.get(i).asText().toUpperCase(java.util.Locale.ROOT)));
    }
    JsonNode b = o.path("confidenceBands");
    double[] bands = {b.path(0).asDouble(0.5), b.path(1).asDouble(0.75)};
    double strength = o.path("strength").asDouble(0);
    Map<Dimension, Confusion> confusions = new EnumMap<>(Dimension.class);
    for (Dimension d : Dimension.LABELLED) {
      JsonNode rows = o.path("dimensions").get(d.key());
      if (rows == null || !rows.isArray()) {
        throw new IllegalArgumentException("rules confusion: no rows for " + d.key());
      }
      confusions.put(d, Confusion.fromJson(d, rows, strength, base(d)));
    }
    return new RulesCalibration(
        o.path("rulesVersion").asText(), parts, bands, strength, confusions);
  }

  private static RulesCalibration load() {
    try (InputStream in = RulesCalibration.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path");
      }
      return fromJson(new ObjectMapper().readTree(in));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
