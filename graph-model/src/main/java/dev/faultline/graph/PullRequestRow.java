package dev.faultline.graph;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pull request's newest state, or a change that reached the default branch without one (read from
 * git history: {@code id} is {@code owner/repo@sha} and {@code number} is 0).
 *
 * @param fixes ids ({@code owner/repo#n}) of the issues its closing keywords name
 * @param sizeKnown whether additions, deletions and changed files were in the payload; when not,
 *     the graph keeps the sizes it has
 * @param source {@code git} for changes read from a clone's history, null for GitHub's payloads
 * @param changeKind for git history: {@code SQUASH}, {@code MERGE} or {@code DIRECT}
 * @param mergeCommitSha the commit that brought it to the default branch, when known
 * @param author the author's login, when known
 * @param classification the change's own classification when it is a merged fix, else null
 */
public record PullRequestRow(
    String id,
    String repo,
    String framework,
    int number,
    String title,
    String url,
    String state,
    boolean merged,
    Long mergedAtMillis,
    long createdAtMillis,
    long updatedAtMillis,
    int additions,
    int deletions,
    int changedFiles,
    List<String> fixes,
    boolean sizeKnown,
    String source,
    String changeKind,
    String mergeCommitSha,
    String author,
    Classification classification) {

  /**
   * What the classifier says a merged change fixes (taxonomy codes by dimension), so fix statistics
   * exist also for changes that close no issue.
   *
   * @param codes each dimension's code (an enum constant, or the flag's Boolean; null: cannot tell)
   * @param classifierVersion the classifier version that gave them
   * @param calibration per dimension, what its label's distribution rests on (written as {@code
   *     <key>Calibration}, as on an issue; {@code Calibrations} in the classifier)
   * @param probabilities per dimension, the probability of each code aligned with {@link
   *     Dimension#distributionCodes()} (written as {@code <key>Probabilities}, as on an issue, so
   *     the fix figures are estimates: issue #31); a dimension of {@code codes} without one has its
   *     stored distribution removed, so a distribution always belongs to the code beside it
   */
  public record Classification(
      Map<Dimension, Object> codes,
      String classifierVersion,
      Map<Dimension, String> calibration,
      Map<Dimension, List<Double>> probabilities) {

    /** A classification without calibration markers or distributions. */
    public Classification(Map<Dimension, Object> codes, String classifierVersion) {
      this(codes, classifierVersion, Map.of(), Map.of());
    }

    /** A classification without distributions. */
    public Classification(
        Map<Dimension, Object> codes,
        String classifierVersion,
        Map<Dimension, String> calibration) {
      this(codes, classifierVersion, calibration, Map.of());
    }

    // Plain maps in the dimensions' order: the row travels between Flink operators, whose Kryo
    // fallback copies a map by creating one of its class and putting every entry (an unmodifiable
    // wrapper refuses the puts; an EnumMap has no key type then).
    public Classification {
      codes = inOrder(codes);
      calibration = inOrder(calibration);
      probabilities = inOrder(probabilities);
      for (Map.Entry<Dimension, List<Double>> e : probabilities.entrySet()) {
        int size = e.getKey().distributionCodes().size();
        if (e.getValue() == null || e.getValue().size() != size) {
          throw new IllegalArgumentException(
              e.getKey().key() + " probabilities must have " + size + " entries: " + e.getValue());
        }
      }
    }

    private static <V> Map<Dimension, V> inOrder(Map<Dimension, V> m) {
      return m == null || m.isEmpty()
          ? new LinkedHashMap<>()
          : new LinkedHashMap<>(new java.util.EnumMap<>(m));
    }

    Map<String, Object> toProperties() {
      Map<String, Object> m = new LinkedHashMap<>();
      codes.forEach((d, code) -> m.put(d.property(), Dimension.symbol(code)));
      codes.keySet().forEach(d -> m.put(d.calibrationProperty(), calibration.get(d)));
      codes.keySet().forEach(d -> m.put(d.probabilitiesProperty(), probabilities.get(d)));
      for (Dimension d : labelled()) {
        m.put(d.versionProperty(), classifierVersion);
      }
      m.put("classifierVersion", classifierVersion);
      return m;
    }

    /** The labelled dimensions among its codes, whose history the graph keeps. */
    List<Dimension> labelled() {
      return codes.keySet().stream().filter(Dimension::labelled).toList();
    }
  }

  public Map<String, Object> toParameters() {
    Map<String, Object> m = new HashMap<>();
    m.put("id", id);
    m.put("repo", repo);
    m.put("framework", framework);
    m.put("number", number > 0 ? number : null);
    m.put("title", title);
    m.put("url", url);
    m.put("state", state);
    m.put("merged", merged);
    m.put("mergedAt", mergedAtMillis);
    m.put("createdAt", createdAtMillis);
    m.put("updatedAt", updatedAtMillis);
    m.put("sizeKnown", sizeKnown);
    m.put("additions", additions);
    m.put("deletions", deletions);
    m.put("changedFiles", changedFiles);
    m.put("fixes", fixes == null ? List.of() : fixes);
    m.put("source", source);
    m.put("changeKind", changeKind);
    m.put("mergeCommitSha", mergeCommitSha);
    m.put("author", author);
    m.put("classification", classification == null ? null : classification.toProperties());
    m.put(
        "history",
        classification == null ? List.of() : LabelHistory.parameter(classification.labelled()));
    return m;
  }
}
