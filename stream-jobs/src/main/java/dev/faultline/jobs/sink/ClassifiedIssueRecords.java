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
    ClassifiedIssue r = new ClassifiedIssue();
    r.setId(i.id);
    r.setRepo(i.repo);
    r.setNumber(i.number);
    r.setFramework(e.framework);
    r.setTitle(i.title);
    r.setUrl(i.url);
    r.setState(i.state);
    r.setCreatedAt(Instant.ofEpochMilli(i.createdAt));
    r.setUpdatedAt(Instant.ofEpochMilli(e.stateVersion));
    r.setClosedAt(i.closedAt == null ? null : Instant.ofEpochMilli(i.closedAt));
    // Each dimension's code, in the record's field of the dimension's Avro name.
    for (Dimension d : Dimension.values()) {
      r.put(d.avroField(), c.label(d).value());
    }
    r.setVersions(new HashMap<>(c.versions()));
    r.setFrameworkVersion(e.frameworkVersion());
    r.setConfidence(byKey(e.confidence()));
    r.setEvidence(byKey(e.evidence()));
    r.setHumanGiven(new ArrayList<>(e.humanGiven().stream().map(Dimension::key).toList()));
    r.setClassifierVersion(c.classifierVersion());
    r.setCommentCount(e.commentCount);
    r.setFixingPullRequests(new ArrayList<>(e.fixingPullRequests));
    r.setDeliveryId(e.deliveryId);
    Map<String, Map<String, Double>> probabilities = new HashMap<>();
    e.probabilities().forEach((d, p) -> probabilities.put(d.key(), new HashMap<>(p)));
    r.setProbabilities(probabilities);
    r.setLabelSource(IssueRows.labelSource(c.provenance()));
    r.setPromptVersion(c.provenance().prompt());
    r.setCalibration(byKey(e.calibration()));
    return r;
  }

  private static <V> Map<String, V> byKey(Map<Dimension, V> m) {
    Map<String, V> out = new HashMap<>();
    m.forEach((d, v) -> out.put(d.key(), v));
    return out;
  }
}
