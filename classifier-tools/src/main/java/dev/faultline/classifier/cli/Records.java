package dev.faultline.classifier.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.Label;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The JSON lines format of {@code classify} input and output and of the gold file ({@code
 * ../shared/eval}).
 */
final class Records {

  /**
   * Output fields, in the order of the gold records: every labelled {@link Dimension}, the
   * framework, the versions.
   */
  static final List<String> FIELDS =
      Stream.concat(
              Dimension.LABELLED.stream().map(Dimension::field), Stream.of("framework", "versions"))
          .toList();

  private Records() {}

  static ObjectNode output(ObjectMapper json, String url, Classification c) {
    ObjectNode o = json.createObjectNode();
    o.put("url", url);
    for (Dimension d : Dimension.LABELLED) {
      Object v = Dimension.symbol(c.label(d).value());
      if (v == null) {
        o.putNull(d.field());
      } else if (v instanceof Boolean b) {
        o.put(d.field(), b);
      } else {
        o.put(d.field(), v.toString());
      }
    }
    if (c.framework().value() == null) {
      o.putNull("framework");
    } else {
      o.put("framework", c.framework().value());
    }
    ObjectNode v = o.putObject("versions");
    c.versions().forEach(v::put);
    ObjectNode conf = o.putObject("confidence");
    ObjectNode ev = o.putObject("evidence");
    for (Dimension d : Dimension.LABELLED) {
      put(conf, ev, d.field(), c.label(d));
    }
    put(conf, ev, "framework", c.framework());
    // Every labelled dimension's probability of each of its codes (Distributions), and what it
    // rests on (Calibrations: cv:, confusion:, prior: or human).
    ObjectNode probabilities = o.putObject("probabilities");
    ObjectNode calibration = o.putObject("calibration");
    for (Dimension d : Dimension.LABELLED) {
      ObjectNode p = probabilities.putObject(d.field());
      Distributions.rounded(d, c.label(d)).forEach(p::put);
      String marker = c.label(d).calibration();
      if (marker == null) {
        calibration.putNull(d.field());
      } else {
        calibration.put(d.field(), marker);
      }
    }
    o.put("classifier_version", c.classifierVersion());
    return o;
  }

  private static void put(ObjectNode conf, ObjectNode ev, String field, Label<?> l) {
    conf.put(field, Math.round(l.confidence() * 1000) / 1000.0);
    ev.put(field, (l.humanGiven() ? "[human] " : "") + l.evidence());
  }

  /**
   * A field of a gold or prediction record as a comparable string ("null" for JSON null or
   * missing).
   */
  static String value(JsonNode rec, String field) {
    JsonNode n = rec.get(field);
    if (n == null || n.isNull()) {
      return "null";
    }
    return n.asText();
  }

  static Map<String, String> versions(JsonNode rec) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    JsonNode v = rec.get("versions");
    if (v != null && v.isObject()) {
      v.fields()
          .forEachRemaining(
              e ->
                  m.put(
                      e.getKey().toLowerCase(java.util.Locale.ROOT),
                      normalise(e.getValue().asText())));
    }
    return m;
  }

  static String normalise(String version) {
    String s = version.trim();
    if (s.startsWith("v") || s.startsWith("V")) {
      s = s.substring(1);
    }
    return s;
  }
}
