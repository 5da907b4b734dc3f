package dev.faultline.jobs.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.Provenance;
import dev.faultline.classifier.learned.Target;
import dev.faultline.classifier.llm.Answer;
import dev.faultline.classifier.llm.AnswerParser;
import dev.faultline.classifier.llm.AnswerSchema;
import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.StatDimension;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import dev.faultline.stats.keys.Categories;
import dev.faultline.stats.records.ClassifiedEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Walks every {@link Dimension} through the boundaries a classification crosses in the issue
 * pipeline: the graph row's Cypher parameters, the classified topic's Avro record, the confidence
 * bars, the learned layer's targets, the language model's answer and the statistics' record. Each
 * dimension gets its own code and confidence, so a mapper that drops or swaps a dimension fails
 * here (the batch format's and the API's lists have their own walks in their modules).
 */
class DimensionBoundariesTest {

  /** A category code of the dimension (true for the flag), distinct per dimension. */
  private static Object codeOf(Dimension d) {
    if (!d.coded()) {
      return Boolean.TRUE;
    }
    return d.symbols().stream()
        .map(d::parse)
        .filter(c -> Dimension.isCategory((Enum<?>) c))
        .reduce((a, b) -> b) // the last category: not a default anyone would write by accident
        .orElseThrow();
  }

  /** A confidence distinct per dimension (a person's label, the phase's, is sure). */
  private static double confidenceOf(Dimension d) {
    return d == Dimension.PHASE ? 1.0 : 0.5 + d.ordinal() / 100.0;
  }

  /** A calibration marker distinct per dimension (a person's label, the phase's, is human). */
  private static String calibrationOf(Dimension d) {
    return d == Dimension.PHASE ? "human" : "cv:test-" + d.ordinal();
  }

  private static ClassifiedIssueEvent event() {
    Map<Dimension, Label<?>> labels = new LinkedHashMap<>();
    for (Dimension d : Dimension.values()) {
      labels.put(
          d,
          d == Dimension.PHASE
              ? Label.human(codeOf(d), "GitHub label")
              : Label.predicted(codeOf(d), confidenceOf(d), "evidence of " + d.key())
                  .withCalibration(calibrationOf(d)));
    }
    IssueEvent i = new IssueEvent();
    i.id = "acme/trainer#7";
    i.repo = "acme/trainer";
    i.number = 7;
    i.title = "t";
    i.body = "b";
    i.state = "open";
    i.url = "https://example.invalid/7";
    i.author = "a";
    i.createdAt = 1_000L;
    i.updatedAt = 2_000L;
    ClassifiedIssueEvent e = new ClassifiedIssueEvent();
    e.issue = i;
    e.framework = "trainer";
    e.stateVersion = 2_000L;
    e.classification =
        new Classification(
            labels,
            Label.predicted("trainer", 1.0, "repository"),
            Map.of(),
            Provenance.learned("learned-test"));
    e.classifiedAt = 3_000L;
    e.deliveryId = "d";
    return e;
  }

  @Test
  void theGraphRowCarriesEveryDimension() {
    Map<String, Object> p = IssueRows.of(event()).toParameters();
    @SuppressWarnings("unchecked")
    Map<String, Object> props = (Map<String, Object>) p.get("classification");
    for (Dimension d : Dimension.values()) {
      assertEquals(Dimension.symbol(codeOf(d)), props.get(d.property()), d + " code");
      List<Double> point = new java.util.ArrayList<>();
      d.distributionCodes()
          .forEach(code -> point.add(code.equals(Dimension.codeOf(codeOf(d))) ? 1.0 : 0.0));
      assertEquals(point, props.get(d.probabilitiesProperty()), d + " probabilities");
      assertEquals(calibrationOf(d), props.get(d.calibrationProperty()), d + " calibration");
      Dimension label = d.labelDimension();
      assertEquals(confidenceOf(label), props.get(label.confidenceProperty()), d + " confidence");
      assertEquals(
          d == Dimension.PHASE ? "human" : "model",
          props.get(label.sourceProperty()),
          d + " source");
      d.edgeParameter()
          .ifPresent(
              edge -> {
                @SuppressWarnings("unchecked")
                Map<String, Object> e = (Map<String, Object>) p.get(edge);
                assertNotNull(e, d + " edge");
                assertEquals(Dimension.symbol(codeOf(d)), e.get("code"), d + " edge code");
                assertEquals(confidenceOf(d), e.get("confidence"), d + " edge confidence");
                assertEquals(calibrationOf(d), e.get("calibration"), d + " edge calibration");
              });
    }
  }

  @Test
  void theClassifiedRecordCarriesEveryDimension() throws Exception {
    ClassifiedIssue r = ClassifiedIssueRecords.of(event());
    ClassifiedIssue back =
        AvroCodec.classifiedIssues().decode(AvroCodec.classifiedIssues().encode(r));
    for (Dimension d : Dimension.values()) {
      Object code = back.get(d.avroField());
      assertEquals(Dimension.symbol(codeOf(d)), Dimension.symbol(code), d + " code");
      Map<String, Double> p = back.getProbabilities().get(d.key());
      assertEquals(d.distributionCodes().size(), p.size(), d + " every code");
      assertEquals(1.0, p.get(Dimension.codeOf(codeOf(d))), d + " probability of its code");
      assertEquals(calibrationOf(d), back.getCalibration().get(d.key()), d + " calibration");
      Dimension label = d.labelDimension();
      assertEquals(confidenceOf(label), back.getConfidence().get(label.key()), d + " confidence");
    }
    assertEquals(List.of("phase"), back.getHumanGiven());
    assertEquals("model", back.getLabelSource(), "the learned layer's labels");
    assertEquals(null, back.getPromptVersion());
  }

  @Test
  void everyLabelledDimensionHasABarTheLearnedTargetAndAnAnswerField() {
    for (Dimension d : Dimension.values()) {
      Dimension label = d.labelDimension();
      assertTrue(ConfidencePolicy.calibrated().bar(d) > 0, d + " bar");
      Target t = Target.of(label);
      assertTrue(
          t.codes.contains(String.valueOf(Dimension.symbol(codeOf(label)))), d + " target codes");
      assertTrue(AnswerSchema.FIELDS.contains(label.field()), d + " answer field");
    }
  }

  @Test
  void anAnswerRoundTripsEveryLabelledDimension() {
    Map<Dimension, Object> codes = new LinkedHashMap<>();
    for (Dimension d : Dimension.LABELLED) {
      codes.put(d, codeOf(d));
    }
    AnswerParser parser = new AnswerParser(new AnswerSchema(Taxonomy.load()));
    Answer a = new Answer(codes);
    AnswerParser.Result r = parser.parse(parser.format(a));
    assertEquals(new AnswerParser.Accepted(a), r);
  }

  @Test
  void theStatisticsRecordCarriesEveryCountedDimension() {
    ClassifiedEvent e = ClassifiedEvent.fromAvro(ClassifiedIssueRecords.of(event()));
    for (Dimension d : Dimension.values()) {
      if (d.statSymbol().isPresent()) {
        Object code = codeOf(d);
        assertEquals(
            code instanceof Boolean b ? Categories.ofFlag(b) : Dimension.symbol(code),
            e.category(d),
            d + " category");
      }
    }
  }

  @Test
  void everyCountedDimensionHasItsStatisticsSymbol() {
    for (Dimension d : Dimension.values()) {
      d.statSymbol().ifPresent(s -> assertEquals(s, StatDimension.valueOf(s).name(), d + ""));
    }
    for (StatDimension s : StatDimension.values()) {
      assertTrue(Dimension.ofStatSymbol(s.name()).isPresent(), s + " has its dimension");
    }
  }
}
