package dev.faultline.jobs.sink;

import dev.faultline.classifier.Classification;
import dev.faultline.jobs.records.ClassifiedIssueEvent;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.schemas.ClassifiedIssue;
import dev.faultline.schemas.taxonomy.Dimension;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * The one mapping from the pipeline's {@link ClassifiedIssueEvent} to the {@code
 * faultline.issues.classified} Avro record; dimensions become their {@link Dimension#key()} in its
 * confidence, evidence and human-given fields.
 */
public final class ClassifiedIssueRecords {
  private ClassifiedIssueRecords() {}

  public static ClassifiedIssue of(ClassifiedIssueEvent e) {
    IssueEvent i = e.issue;
    Classification c = e.classification;
    return ClassifiedIssue.newBuilder()
        .setId(i.id)
        .setRepo(i.repo)
        .setNumber(i.number)
        .setFramework(e.framework)
        .setTitle(i.title)
        .setUrl(i.url)
        .setState(i.state)
        .setCreatedAt(Instant.ofEpochMilli(i.createdAt))
        .setUpdatedAt(Instant.ofEpochMilli(e.stateVersion))
        .setClosedAt(i.closedAt == null ? null : Instant.ofEpochMilli(i.closedAt))
        .setKind(c.kind().value())
        .setSymptom(c.symptom().value())
        .setSymptomClass(c.symptomClass().value())
        .setRootCause(c.rootCause().value())
        .setFixPattern(c.fixPattern().value())
        .setStage(c.stage().value())
        .setPhase(c.phase().value())
        .setDistributedSpecific(c.distributedSpecific().value())
        .setVersions(new HashMap<>(c.versions()))
        .setFrameworkVersion(e.frameworkVersion())
        .setConfidence(byKey(e.confidence()))
        .setEvidence(byKey(e.evidence()))
        .setHumanGiven(new ArrayList<>(e.humanGiven().stream().map(Dimension::key).toList()))
        .setClassifierVersion(c.classifierVersion())
        .setCommentCount(e.commentCount)
        .setFixingPullRequests(new ArrayList<>(e.fixingPullRequests))
        .setDeliveryId(e.deliveryId)
        .build();
  }

  private static <V> Map<String, V> byKey(Map<Dimension, V> m) {
    Map<String, V> out = new HashMap<>();
    m.forEach((d, v) -> out.put(d.key(), v));
    return out;
  }
}
