package dev.faultline.jobs.llm;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.Provenance;
import dev.faultline.graph.IssueRow;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.sink.IssueRows;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Classified issues as the offline tier emits them, written for the language-model tier's tests.
 */
final class OfflineEvents {
  private OfflineEvents() {}

  /**
   * A hang in communication during the phase {@code phase}; the dimensions in {@code human} carry a
   * person's label (phase's evidence names the GitHub label), the others the given classifier
   * version's.
   */
  static ClassifiedIssueEvent event(
      String id,
      String title,
      String body,
      long version,
      Provenance provenance,
      Phase phase,
      List<Dimension> human) {
    IssueEvent i = new IssueEvent();
    i.id = id;
    i.repo = id.substring(0, id.indexOf('#'));
    i.number = Integer.parseInt(id.substring(id.indexOf('#') + 1));
    i.title = title;
    i.body = body;
    i.state = "open";
    i.author = "someone";
    i.createdAt = version;
    i.updatedAt = version;
    ClassifiedIssueEvent e = new ClassifiedIssueEvent();
    e.issue = i;
    e.framework = "trainer";
    e.stateVersion = version;
    e.classification =
        new Classification(
            Map.of(
                Dimension.KIND, label(Kind.BUG, 0.7, human.contains(Dimension.KIND), "kind"),
                Dimension.SYMPTOM,
                    label(Symptom.HANG, 0.6, human.contains(Dimension.SYMPTOM), "symptom"),
                Dimension.SYMPTOM_CLASS,
                    label(
                        SymptomClass.valueOf("HANG"),
                        0.6,
                        human.contains(Dimension.SYMPTOM),
                        "symptom"),
                Dimension.ROOT_CAUSE,
                    label(
                        RootCause.UNKNOWN, 0.3, human.contains(Dimension.ROOT_CAUSE), "root cause"),
                Dimension.FIX_PATTERN,
                    label(
                        FixPattern.UNKNOWN,
                        0.3,
                        human.contains(Dimension.FIX_PATTERN),
                        "fix pattern"),
                Dimension.STAGE,
                    label(Stage.COMMUNICATION, 0.5, human.contains(Dimension.STAGE), "stage"),
                Dimension.PHASE,
                    human.contains(Dimension.PHASE)
                        ? Label.human(
                            phase,
                            "GitHub label '"
                                + phase.name().toLowerCase(java.util.Locale.ROOT)
                                + "'")
                        : Label.predicted(phase, 0.6, "model p=0.60"),
                Dimension.DISTRIBUTED_SPECIFIC,
                    label(
                        Boolean.TRUE,
                        0.8,
                        human.contains(Dimension.DISTRIBUTED_SPECIFIC),
                        "distributed")),
            Label.predicted("trainer", 1.0, "repository"),
            Map.of(),
            provenance);
    e.classifiedAt = version;
    e.deliveryId = "d-" + version + "-" + provenance.classifierVersion();
    e.fixingPullRequests = new ArrayList<>();
    return e;
  }

  /**
   * The offline event of issue acme/trainer#4 (phase INFERENCE) with people's labels on {@code
   * human}.
   */
  static ClassifiedIssueEvent offline(List<Dimension> human) {
    return event(
        "acme/trainer#4",
        "t",
        "b",
        1_000L,
        Provenance.learned("learned-2+rules-1.3.1"),
        Phase.INFERENCE,
        human);
  }

  /** The offline event of acme/trainer#4 whose kind a person labelled QUESTION. */
  static ClassifiedIssueEvent question() {
    ClassifiedIssueEvent e = offline(List.of());
    e.classification =
        e.classification.with(
            Dimension.KIND, l -> Label.human(Kind.QUESTION, "GitHub label 'question'"));
    return e;
  }

  /** The graph row an event becomes. */
  static IssueRow.ClassificationRow row(ClassifiedIssueEvent e) {
    return IssueRows.of(e).classification();
  }

  private static <T> Label<T> label(T value, double confidence, boolean human, String what) {
    return human
        ? Label.human(value, "GitHub label for " + what)
        : Label.predicted(value, confidence, "model");
  }
}
