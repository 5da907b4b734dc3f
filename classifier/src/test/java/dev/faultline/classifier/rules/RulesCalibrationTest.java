package dev.faultline.classifier.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.Distributions;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.Label;
import dev.faultline.schemas.taxonomy.Dimension;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shipped rules' confusion ({@link RulesCalibration#RESOURCE}) belongs to these rules, and a
 * rules label's distribution is its row: the counts of the artefact, read here with Jackson and
 * smoothed by hand, not by the code under test.
 */
class RulesCalibrationTest {

  private static JsonNode artefact() throws Exception {
    try (InputStream in = RulesCalibration.class.getResourceAsStream(RulesCalibration.RESOURCE)) {
      return new ObjectMapper().readTree(in);
    }
  }

  @Test
  void theArtefactIsTheseRulesCountedOnTheTrainingCorpusWithTheChoiceItReports() throws Exception {
    JsonNode a = artefact();
    assertEquals(
        Classifier.VERSION,
        a.path("rulesVersion").asText(),
        "the rules changed: count their confusion again (faultline train --data ../shared/train"
            + " --rules-confusion)");
    for (Dimension d : Dimension.LABELLED) {
      long n = 0;
      for (JsonNode row : a.path("dimensions").path(d.key())) {
        assertTrue(d.distributionCodes().contains(row.path("key").path(0).asText()), d + " row");
        for (JsonNode cell : row.path("n")) {
          n += cell.asLong();
        }
      }
      // 2,341 labelled items; a person's label (the phase of items labelled 'training') is not
      // counted
      assertTrue(n > 2000 && n <= 2341, d + " counts " + n);
      if (d == Dimension.KIND) {
        assertEquals(2341, n, "no person labels a kind under the default configuration");
      }
    }
    JsonNode chosen = null;
    for (JsonNode c : a.path("report").path("selection")) {
      if (c.path("chosen").asBoolean()) {
        chosen = c;
      }
    }
    assertEquals(a.path("strength").asDouble(), chosen.path("strength").asDouble());
    List<String> key = new ArrayList<>();
    a.path("key").forEach(k -> key.add(k.asText()));
    assertEquals(chosen.path("key").asText(), String.join("+", key));
  }

  /** The row of a key by hand: the training mix, then each prefix's counts over its strength. */
  private static double[] byHand(JsonNode a, Dimension d, List<String> key) {
    List<String> codes = d.distributionCodes();
    double strength = a.path("strength").asDouble();
    double[] p = new double[codes.size()];
    Map<String, Double> mix = Distributions.prior(d);
    for (int c = 0; c < p.length; c++) {
      p[c] = mix.get(codes.get(c));
    }
    for (int i = 1; i <= key.size(); i++) {
      double[] n = new double[codes.size()];
      boolean seen = false;
      for (JsonNode row : a.path("dimensions").path(d.key())) {
        List<String> k = new ArrayList<>();
        row.path("key").forEach(x -> k.add(x.asText()));
        if (k.subList(0, i).equals(key.subList(0, i))) {
          seen = true;
          for (int c = 0; c < n.length; c++) {
            n[c] += row.path("n").path(codes.get(c)).asDouble(0);
          }
        }
      }
      if (!seen) {
        break;
      }
      double total = 0;
      for (double x : n) {
        total += x;
      }
      for (int c = 0; c < p.length; c++) {
        p[c] = (n[c] + strength * p[c]) / (total + strength);
      }
    }
    return p;
  }

  @Test
  void aRulesLabelGetsItsRowItsConfidenceAndTheMarkerNotTheOldSpread() throws Exception {
    JsonNode a = artefact();
    IssueText hang =
        new IssueText(
            "acme/trainer",
            3,
            "Training hangs in all_reduce on 2 nodes",
            "NCCL all_reduce never returns after the first step; no error, the job hangs.",
            List.of(),
            List.of(),
            List.of(),
            "open");
    Classifier rules = new Classifier(ClassifierConfig.defaults());
    var raw = rules.analyse(hang).classification();
    var out = rules.classify(hang);
    for (Dimension d : Dimension.LABELLED) {
      Label<?> r = raw.label(d);
      String band = r.confidence() < 0.5 ? "low" : r.confidence() < 0.75 ? "mid" : "high";
      double[] expected = byHand(a, d, List.of(Dimension.codeOf(r.value()), "issue", band));
      Map<String, Double> got = Distributions.of(d, out.label(d));
      for (int c = 0; c < expected.length; c++) {
        assertEquals(expected[c], got.get(d.distributionCodes().get(c)), 1e-12, d + " row");
      }
      assertEquals(
          got.get(Dimension.codeOf(r.value())),
          out.label(d).confidence(),
          1e-12,
          d + ": the confidence is the row's probability of the answer");
      assertEquals("cv:" + Classifier.VERSION, out.label(d).calibration(), d + " marker");
      assertEquals(r.value(), out.label(d).value(), d + ": the rules' labels do not change");
    }
    // The symptom the rules call HANG: its row is measured, not 0.8 on HANG and the rest by the
    // training mix
    assertTrue(
        Math.abs(out.symptom().confidence() - raw.symptom().confidence()) > 1e-3,
        "measured, not the hand-set confidence");
  }

  @Test
  void theArtefactRoundTripsThroughItsJson() throws Exception {
    RulesCalibration c = RulesCalibration.bundled();
    RulesCalibration back = RulesCalibration.fromJson(c.toJson(new ObjectMapper(), "d", null));
    for (Dimension d : Dimension.LABELLED) {
      List<String> k = c.key(d.coded() ? d.symbols().get(0) : "true", 0.6, true);
      assertEquals(c.confusion(d).row(k), back.confusion(d).row(k), d + "");
    }
    assertEquals(c.parts(), back.parts());
    assertEquals(c.marker(), back.marker());
  }
}
