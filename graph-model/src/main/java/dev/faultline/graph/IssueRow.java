package dev.faultline.graph;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One issue's newest state and classification as the graph stores it. {@link #toParameters()} is
 * the one mapping to Cypher parameters: taxonomy codes become their symbols and dimensions their
 * {@link Dimension#key()} there.
 *
 * @param id {@code owner/repo#n}
 * @param stateVersion the newest event time folded into this state (issue, comment or linked PR); a
 *     row with a lower version than the stored one changes nothing
 * @param updatedAtMillis GitHub's {@code updated_at} of the issue
 * @param transferredTo the new id when the issue was transferred, else null
 * @param classification null when not classified
 */
public record IssueRow(
    String id,
    String repo,
    String framework,
    int number,
    String title,
    String body,
    String state,
    String url,
    String author,
    List<String> labels,
    long createdAtMillis,
    long updatedAtMillis,
    Long closedAtMillis,
    long stateVersion,
    int commentCount,
    String transferredTo,
    ClassificationRow classification) {

  /**
   * The classification of an issue, as codes of the taxonomy.
   *
   * @param distributedSpecific null when the text cannot tell
   * @param confidence dimension (kind, symptom, rootCause, fixPattern, stage, phase,
   *     distributedSpecific) to confidence
   * @param evidence dimension to the rule and words that decided it
   * @param humanGiven dimensions whose value a GitHub label set
   * @param labelSource the tier that gave the labels not in {@code humanGiven} ({@link
   *     LabelSource}: {@code rules}, {@code model} or {@code llm:<model>}); those in {@code
   *     humanGiven} are {@code human}
   * @param promptVersion the prompt version of a language model's labels, else null
   */
  public record ClassificationRow(
      Kind kind,
      Symptom symptom,
      SymptomClass symptomClass,
      RootCause rootCause,
      FixPattern fixPattern,
      Stage stage,
      Phase phase,
      Boolean distributedSpecific,
      String frameworkVersion,
      Map<String, String> versions,
      Map<Dimension, Double> confidence,
      Map<Dimension, String> evidence,
      List<Dimension> humanGiven,
      String classifierVersion,
      long classifiedAtMillis,
      String labelSource,
      String promptVersion) {

    /** A null {@code labelSource} follows from the classifier version (an offline tier's row). */
    public ClassificationRow {
      if (labelSource == null) {
        labelSource = LabelSource.ofClassifierVersion(classifierVersion);
      }
    }

    /**
     * The source of one dimension's label: {@code human} when a GitHub label set it, else {@link
     * #labelSource()}.
     */
    public String sourceOf(Dimension dimension) {
      return humanGiven != null && humanGiven.contains(dimension) ? LabelSource.HUMAN : labelSource;
    }

    /**
     * The precedence of this row over another of the same issue state ({@link LabelSource#rankOf}).
     */
    public int rank() {
      return LabelSource.rankOf(labelSource);
    }
  }

  /** Codes that mean "no category" (UNKNOWN, NONE): no edge is drawn for them. */
  private static boolean known(Enum<?> code) {
    return Dimension.isCategory(code);
  }

  private static String symbol(Enum<?> code) {
    return code == null ? null : code.name();
  }

  public Map<String, Object> toParameters() {
    Map<String, Object> m = new HashMap<>();
    m.put("id", id);
    m.put("repo", repo);
    m.put("framework", framework);
    m.put("number", number);
    m.put("title", title);
    m.put("body", body);
    m.put("state", state);
    m.put("url", url);
    m.put("author", author);
    m.put("labels", labels == null ? List.of() : labels);
    m.put("createdAt", createdAtMillis);
    m.put("updatedAt", updatedAtMillis);
    m.put("closedAt", closedAtMillis);
    m.put("stateVersion", stateVersion);
    m.put("commentCount", commentCount);
    m.put("transferredTo", transferredTo);
    ClassificationRow c = classification;
    Map<String, Object> props = new HashMap<>();
    List<Map<String, Object>> versionRows = new ArrayList<>();
    if (c != null) {
      props.put("kind", symbol(c.kind()));
      props.put("symptom", symbol(c.symptom()));
      props.put("symptomClass", symbol(c.symptomClass()));
      props.put("rootCause", symbol(c.rootCause()));
      props.put("fixPattern", symbol(c.fixPattern()));
      props.put("stage", symbol(c.stage()));
      props.put("phase", symbol(c.phase()));
      props.put("distributedSpecific", c.distributedSpecific());
      props.put("frameworkVersion", c.frameworkVersion());
      props.put("classifierVersion", c.classifierVersion());
      props.put(
          "classifiedAt",
          java.time.Instant.ofEpochMilli(c.classifiedAtMillis()).atZone(java.time.ZoneOffset.UTC));
      props.put(
          "humanGiven",
          c.humanGiven() == null
              ? List.of()
              : c.humanGiven().stream().map(Dimension::key).toList());
      // Provenance: the row's tier, its prompt (language model only) and each label's own source.
      props.put("labelSource", c.labelSource());
      props.put("labelRank", c.rank());
      props.put("promptVersion", c.promptVersion());
      for (Dimension dimension : Dimension.LABELLED) {
        props.put(dimension.key() + "Source", c.sourceOf(dimension));
      }
      props.put("kindConfidence", confidence(c, Dimension.KIND));
      props.put("phaseConfidence", confidence(c, Dimension.PHASE));
      props.put("distributedSpecificConfidence", confidence(c, Dimension.DISTRIBUTED_SPECIFIC));
      // the edge dimensions' confidences on the issue too: an UNKNOWN or NONE value has no edge to
      // carry it
      props.put("symptomConfidence", confidence(c, Dimension.SYMPTOM));
      props.put("rootCauseConfidence", confidence(c, Dimension.ROOT_CAUSE));
      props.put("fixPatternConfidence", confidence(c, Dimension.FIX_PATTERN));
      props.put("stageConfidence", confidence(c, Dimension.STAGE));
      // A dimension without an edge keeps its evidence on the issue: kind, phase and
      // distributedSpecific always, the
      // edge dimensions while UNKNOWN ("no diagnosis stated", "below threshold: ..."). A null
      // removes what an
      // earlier classification left once the edge carries it.
      props.put("kindEvidence", evidence(c, Dimension.KIND));
      props.put("phaseEvidence", evidence(c, Dimension.PHASE));
      props.put("distributedSpecificEvidence", evidence(c, Dimension.DISTRIBUTED_SPECIFIC));
      props.put("symptomEvidence", known(c.symptom()) ? null : evidence(c, Dimension.SYMPTOM));
      props.put(
          "rootCauseEvidence", known(c.rootCause()) ? null : evidence(c, Dimension.ROOT_CAUSE));
      props.put(
          "fixPatternEvidence", known(c.fixPattern()) ? null : evidence(c, Dimension.FIX_PATTERN));
      props.put("stageEvidence", known(c.stage()) ? null : evidence(c, Dimension.STAGE));
      if (c.versions() != null) {
        c.versions()
            .forEach(
                (component, version) ->
                    versionRows.add(
                        Map.of(
                            "id",
                            component + "@" + version,
                            "component",
                            component,
                            "version",
                            version)));
      }
      m.put("symptomEdge", edge(c, Dimension.SYMPTOM, c.symptom()));
      m.put("rootCauseEdge", edge(c, Dimension.ROOT_CAUSE, c.rootCause()));
      m.put("fixPatternEdge", edge(c, Dimension.FIX_PATTERN, c.fixPattern()));
      m.put("stageEdge", edge(c, Dimension.STAGE, c.stage()));
    } else {
      m.put("symptomEdge", null);
      m.put("rootCauseEdge", null);
      m.put("fixPatternEdge", null);
      m.put("stageEdge", null);
    }
    m.put("frameworkVersion", c == null ? null : c.frameworkVersion());
    m.put("labelRank", c == null ? LabelSource.OFFLINE_RANK : c.rank());
    m.put("classification", props);
    m.put("versions", versionRows);
    return m;
  }

  private static Double confidence(ClassificationRow c, Dimension dimension) {
    return c.confidence() == null ? null : c.confidence().get(dimension);
  }

  private static String evidence(ClassificationRow c, Dimension dimension) {
    return c.evidence() == null ? null : c.evidence().get(dimension);
  }

  private static Map<String, Object> edge(ClassificationRow c, Dimension dimension, Enum<?> code) {
    if (!known(code)) {
      return null;
    }
    Map<String, Object> e = new HashMap<>();
    e.put("code", code.name());
    e.put("confidence", confidence(c, dimension));
    e.put("evidence", evidence(c, dimension));
    e.put("humanGiven", c.humanGiven() != null && c.humanGiven().contains(dimension));
    e.put("classifierVersion", c.classifierVersion());
    e.put("source", c.sourceOf(dimension));
    e.put("promptVersion", c.promptVersion());
    return e;
  }
}
