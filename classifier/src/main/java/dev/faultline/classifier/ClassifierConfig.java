package dev.faultline.classifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Settings of the {@link dev.faultline.classifier.rules.Classifier}.
 *
 * @param confidenceThreshold below this confidence a dimension answers {@code UNKNOWN} (in [0, 1))
 * @param labelOverrides GitHub label (lower-case) to the category it sets; such values win over the
 *     rules and are marked human-given
 */
public record ClassifierConfig(
    double confidenceThreshold, Map<String, LabelOverride> labelOverrides) {

  /** Classpath location of the default configuration. */
  public static final String DEFAULT_RESOURCE = "/dev/faultline/classifier/classifier-config.json";

  /**
   * A category set by a GitHub label.
   *
   * @param dimension the dimension it decides: {@code KIND}, {@code SYMPTOM}, {@code STAGE} or
   *     {@code PHASE}
   * @param code a symbol of that dimension's enum
   */
  public record LabelOverride(Dimension dimension, String code) {}

  public ClassifierConfig {
    if (!(confidenceThreshold >= 0.0 && confidenceThreshold < 1.0)) {
      throw new IllegalArgumentException(
          "confidenceThreshold must be in [0, 1), was " + confidenceThreshold + "; use e.g. 0.35");
    }
    Map<String, LabelOverride> lower = new LinkedHashMap<>();
    labelOverrides.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    labelOverrides = java.util.Collections.unmodifiableMap(lower);
  }

  /** The defaults shipped in {@value #DEFAULT_RESOURCE}. */
  public static ClassifierConfig defaults() {
    return load(DEFAULT_RESOURCE);
  }

  /** Reads a configuration resource from the classpath; errors name the resource and the field. */
  public static ClassifierConfig load(String resource) {
    try (InputStream in = ClassifierConfig.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "classifier config " + resource + " not found on the classpath");
      }
      return parse(new ObjectMapper().readTree(in), resource);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read classifier config " + resource, e);
    }
  }

  static ClassifierConfig parse(JsonNode root, String where) {
    JsonNode threshold = root.get("confidenceThreshold");
    if (threshold == null || !threshold.isNumber()) {
      throw new IllegalStateException(
          where + ": 'confidenceThreshold' must be a number such as 0.35");
    }
    Map<String, LabelOverride> overrides = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.path("labelOverrides").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String dim = e.getValue().path("dimension").asText();
      String code = e.getValue().path("code").asText();
      Dimension d = dimension(dim, where, e.getKey());
      if (!Taxonomy.load().dimension(d).allSymbols().contains(code)) {
        throw new IllegalStateException(
            where
                + ": labelOverrides."
                + e.getKey()
                + ".code '"
                + code
                + "' is not a "
                + d.key()
                + " code");
      }
      overrides.put(e.getKey(), new LabelOverride(d, code));
    }
    return new ClassifierConfig(threshold.asDouble(), overrides);
  }

  private static Dimension dimension(String name, String where, String label) {
    for (Dimension d : Dimension.CODED) {
      if (d.key().equalsIgnoreCase(name) || d.name().equalsIgnoreCase(name)) {
        if (d == Dimension.KIND
            || d == Dimension.SYMPTOM
            || d == Dimension.STAGE
            || d == Dimension.PHASE) {
          return d;
        }
      }
    }
    throw new IllegalStateException(
        where
            + ": labelOverrides."
            + label
            + ".dimension '"
            + name
            + "' must be kind, symptom, stage or phase");
  }
}
