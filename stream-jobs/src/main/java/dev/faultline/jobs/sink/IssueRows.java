package dev.faultline.jobs.sink;

import dev.faultline.classifier.Classification;
import dev.faultline.graph.IssueRow;
import dev.faultline.graph.LabelSource;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.IssueEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The one mapping from the pipeline's {@link ClassifiedIssueEvent} to the graph's {@link IssueRow}.
 */
public final class IssueRows {
  private IssueRows() {}

  public static IssueRow of(ClassifiedIssueEvent e) {
    IssueEvent i = e.issue;
    Classification c = e.classification;
    IssueRow.ClassificationRow row =
        new IssueRow.ClassificationRow(
            c.kind().value(),
            c.symptom().value(),
            c.symptomClass().value(),
            c.rootCause().value(),
            c.fixPattern().value(),
            c.stage().value(),
            c.phase().value(),
            c.distributedSpecific().value(),
            e.frameworkVersion(),
            new LinkedHashMap<>(c.versions()),
            e.confidence(),
            e.evidence(),
            new ArrayList<>(e.humanGiven()),
            c.classifierVersion(),
            e.classifiedAt,
            LabelSource.ofClassifierVersion(c.classifierVersion()),
            LabelSource.promptOf(c.classifierVersion()));
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
        row);
  }
}
