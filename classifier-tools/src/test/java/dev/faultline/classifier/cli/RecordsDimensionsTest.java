package dev.faultline.classifier.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.Provenance;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every labelled dimension reaches the batch format's line under its field, with its confidence,
 * probabilities and calibration marker.
 */
class RecordsDimensionsTest {

  @Test
  void aLineCarriesEveryLabelledDimension() {
    Map<Dimension, Label<?>> labels = new LinkedHashMap<>();
    for (Dimension d : Dimension.values()) {
      Object code =
          d.coded()
              ? d.symbols().stream()
                  .map(d::parse)
                  .filter(c -> Dimension.isCategory((Enum<?>) c))
                  .reduce((a, b) -> b)
                  .orElseThrow()
              : Boolean.FALSE;
      labels.put(
          d,
          Label.predicted(code, 0.5 + d.ordinal() / 100.0, "e" + d.ordinal())
              .withCalibration("cv:test-" + d.ordinal()));
    }
    Classification c =
        new Classification(
            labels, Label.predicted("trainer", 1.0, "r"), Map.of(), Provenance.rules("rules-t"));
    ObjectNode line = Records.output(new ObjectMapper(), "u", c);
    for (Dimension d : Dimension.LABELLED) {
      Object code = Dimension.symbol(labels.get(d).value());
      assertEquals(String.valueOf(code), line.get(d.field()).asText(), d + " code");
      assertEquals(
          0.5 + d.ordinal() / 100.0, line.get("confidence").get(d.field()).asDouble(), 1e-9);
      assertEquals("e" + d.ordinal(), line.get("evidence").get(d.field()).asText());
      assertTrue(Records.FIELDS.contains(d.field()), d + " in the gold fields");
      assertEquals(
          d.distributionCodes().size(),
          line.get("probabilities").get(d.field()).size(),
          d + " probabilities over every code");
      assertEquals(
          1.0,
          line.get("probabilities").get(d.field()).get(Dimension.codeOf(code)).asDouble(),
          d + " a label without a distribution is a point mass");
      assertEquals(
          "cv:test-" + d.ordinal(),
          line.get("calibration").get(d.field()).asText(),
          d + " its own calibration marker");
    }
    assertEquals("rules-t", line.get("classifier_version").asText());
  }
}
