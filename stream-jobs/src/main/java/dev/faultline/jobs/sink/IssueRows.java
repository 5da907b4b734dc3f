package dev.faultline.jobs.sink;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.Provenance;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.LabelSource;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one mapping from the pipeline's {@link ClassifiedIssueEvent} to the graph's {@link IssueRow}.
 */
public final class IssueRows {
  private IssueRows() {}

  /** Each dimension's probabilities as the graph's list, aligned with its codes. */
  private static Map<Dimension, List<Double>> aligned(ClassifiedIssueEvent e) {
    Map<Dimension, List<Double>> m = new LinkedHashMap<>();
    e.probabilities().forEach((d, p) -> m.put(d, new ArrayList<>(p.values())));
    return m;
  }

  /** The graph's {@link LabelSource} of a classifier's provenance. */
  public static String labelSource(Provenance p) {
    return switch (p.tier()) {
      case RULES -> LabelSource.RULES;
      case MODEL -> LabelSource.MODEL;
      case LLM -> LabelSource.llm(p.model());
    };
  }

  public static IssueRow of(ClassifiedIssueEvent e) {
    IssueEvent i = e.issue;
    Classification c = e.classification;
    Map<Dimension, Object> codes = new LinkedHashMap<>();
    for (Dimension d : Dimension.values()) {
      codes.put(d, c.label(d).value());
    }
    IssueRow.ClassificationRow row =
        new IssueRow.ClassificationRow(
            codes,
            e.frameworkVersion(),
            new LinkedHashMap<>(c.versions()),
            e.confidence(),
            e.evidence(),
            new ArrayList<>(e.humanGiven()),
            c.classifierVersion(),
            e.classifiedAt,
            labelSource(c.provenance()),
            c.provenance().prompt(),
            aligned(e),
            e.calibration());
    return new IssueRow(
        i.id,
        i.repo,
        e.framework,
        i.number,
        i.title,
        i.body,
        i.state,
        i.url,
        i.author,
        List.copyOf(i.labels),
        i.createdAt,
        i.updatedAt,
        i.closedAt,
        e.stateVersion,
        e.commentCount,
        i.transferredTo,
        row,
        e.textVectorKey == null ? null : new IssueRow.TextVector(e.textVectorKey, e.textVector),
        e.pass,
        e.answer == null
            ? null
            : new IssueRow.Answer(
                e.answer.author, e.answer.maintainer, e.answer.createdAt, e.answer.body));
  }
}
