package dev.faultline.jobs.classify;

import dev.faultline.classifier.Classification;
import dev.faultline.classifier.DefectClassifier;
import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.LinkedPullRequest;
import dev.faultline.graph.IssueRow;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.records.PullRequestEvent;
import dev.faultline.schemas.ClassifiedIssue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Classifies what an {@link IssueAccumulator} knows and maps the answer to the graph row and the topic record. */
public final class IssueClassification {
  private final DefectClassifier classifier;

  public IssueClassification(DefectClassifier classifier) {
    this.classifier = classifier;
  }

  /** The classifier's input for this issue. */
  public static IssueText textOf(IssueAccumulator acc) {
    IssueEvent i = acc.issue;
    List<Comment> comments = acc.comments.stream().map(c -> new Comment(c.author, c.maintainer, c.body)).toList();
    List<LinkedPullRequest> prs =
        acc.fixes.values().stream()
            .sorted(java.util.Comparator.comparing(p -> p.id))
            .map(p -> new LinkedPullRequest(p.title, p.body, p.merged, p.additions, p.deletions))
            .toList();
    return new IssueText(i.repo, i.number, i.title, i.body, i.labels, comments, prs, i.state);
  }

  /** Classifies and builds the graph row. */
  public IssueRow classify(IssueAccumulator acc, long classifiedAt) {
    IssueEvent i = acc.issue;
    Classification c = classifier.classify(textOf(acc));
    String framework = c.framework().value() != null ? c.framework().value() : i.repo;
    Map<String, Double> confidence = new LinkedHashMap<>();
    Map<String, String> evidence = new LinkedHashMap<>();
    List<String> human = new ArrayList<>();
    record(confidence, evidence, human, "kind", c.kind());
    record(confidence, evidence, human, "symptom", c.symptom());
    record(confidence, evidence, human, "rootCause", c.rootCause());
    record(confidence, evidence, human, "fixPattern", c.fixPattern());
    record(confidence, evidence, human, "stage", c.stage());
    record(confidence, evidence, human, "phase", c.phase());
    record(confidence, evidence, human, "distributedSpecific", c.distributedSpecific());
    IssueRow.ClassificationRow row =
        new IssueRow.ClassificationRow(
            c.kind().value().name(),
            c.symptom().value().name(),
            c.symptomClass().value().name(),
            c.rootCause().value().name(),
            c.fixPattern().value().name(),
            c.stage().value().name(),
            c.phase().value().name(),
            c.distributedSpecific().value(),
            frameworkVersion(framework, c.versions()),
            new LinkedHashMap<>(c.versions()),
            confidence,
            evidence,
            human,
            c.classifierVersion(),
            classifiedAt);
    int commentCount = i.comments != null ? Math.max(i.comments, acc.comments.size()) : acc.comments.size();
    return new IssueRow(
        i.id, i.repo, framework, i.number, i.title, i.body, i.state, i.url, i.author, List.copyOf(i.labels), i.createdAt,
        i.updatedAt, i.closedAt, acc.stateVersion, commentCount, i.transferredTo, row);
  }

  /** The framework's own reported version: the version extractor keys it by its package name. */
  static String frameworkVersion(String framework, Map<String, String> versions) {
    String key =
        switch (framework.toLowerCase(java.util.Locale.ROOT)) {
          case "colossal-ai" -> "colossalai";
          case "megatron-lm" -> "megatron-core";
          case "pytorch" -> "torch";
          default -> framework.toLowerCase(java.util.Locale.ROOT);
        };
    return versions.get(key);
  }

  private static void record(Map<String, Double> confidence, Map<String, String> evidence, List<String> human, String dim, Label<?> label) {
    confidence.put(dim, label.confidence());
    if (label.evidence() != null) {
      evidence.put(dim, label.evidence());
    }
    if (label.humanGiven()) {
      human.add(dim);
    }
  }

  /** The topic record of a classified issue. */
  public static ClassifiedIssue toAvro(IssueRow row, String deliveryId, List<String> fixingPullRequests) {
    IssueRow.ClassificationRow c = row.classification();
    return ClassifiedIssue.newBuilder()
        .setId(row.id())
        .setRepo(row.repo())
        .setNumber(row.number())
        .setFramework(row.framework())
        .setTitle(row.title())
        .setUrl(row.url())
        .setState(row.state())
        .setCreatedAt(Instant.ofEpochMilli(row.createdAtMillis()))
        .setUpdatedAt(Instant.ofEpochMilli(row.stateVersion()))
        .setClosedAt(row.closedAtMillis() == null ? null : Instant.ofEpochMilli(row.closedAtMillis()))
        .setKind(dev.faultline.schemas.taxonomy.Kind.valueOf(c.kind()))
        .setSymptom(dev.faultline.schemas.taxonomy.Symptom.valueOf(c.symptom()))
        .setSymptomClass(dev.faultline.schemas.taxonomy.SymptomClass.valueOf(c.symptomClass()))
        .setRootCause(dev.faultline.schemas.taxonomy.RootCause.valueOf(c.rootCause()))
        .setFixPattern(dev.faultline.schemas.taxonomy.FixPattern.valueOf(c.fixPattern()))
        .setStage(dev.faultline.schemas.taxonomy.Stage.valueOf(c.stage()))
        .setPhase(dev.faultline.schemas.taxonomy.Phase.valueOf(c.phase()))
        .setDistributedSpecific(c.distributedSpecific())
        .setVersions(new HashMap<>(c.versions()))
        .setFrameworkVersion(c.frameworkVersion())
        .setConfidence(new HashMap<>(c.confidence()))
        .setEvidence(new HashMap<>(c.evidence()))
        .setHumanGiven(new ArrayList<>(c.humanGiven()))
        .setClassifierVersion(c.classifierVersion())
        .setCommentCount(row.commentCount())
        .setFixingPullRequests(new ArrayList<>(fixingPullRequests))
        .setDeliveryId(deliveryId)
        .build();
  }

  /** Ids of the pull requests that say they fix the issue. */
  public static List<String> fixingPullRequests(IssueAccumulator acc) {
    return acc.fixes.values().stream().map((PullRequestEvent p) -> p.id).sorted().toList();
  }
}
