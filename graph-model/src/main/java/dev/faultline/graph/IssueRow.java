package dev.faultline.graph;

import dev.faultline.schemas.taxonomy.Dimension;
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
 * @param textVector the text vector the learned classifier used and its key, else null
 * @param pass the change this row belongs to: live, a token the pipeline draws for each
 *     classification of a state, kept by its language-model upgrade; in a bounded replay, the run's
 *     token, the same for every row of the run and its resumed attempts; so that {@link
 *     LabelHistory} writes one change once whatever rows of it reach the graph in whatever batches;
 *     null for none (a row not from the issue pipeline)
 * @param answer the reply a reader of a similar issue would look for first (see {@link Answer}),
 *     else null
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
    ClassificationRow classification,
    TextVector textVector,
    String pass,
    Answer answer) {

  /** A row without a text vector. */
  public IssueRow(
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
    this(
        id,
        repo,
        framework,
        number,
        title,
        body,
        state,
        url,
        author,
        labels,
        createdAtMillis,
        updatedAtMillis,
        closedAtMillis,
        stateVersion,
        commentCount,
        transferredTo,
        classification,
        null,
        null,
        null);
  }

  /** A row of no particular classification (see {@link #pass()}). */
  public IssueRow(
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
      ClassificationRow classification,
      TextVector textVector) {
    this(
        id,
        repo,
        framework,
        number,
        title,
        body,
        state,
        url,
        author,
        labels,
        createdAtMillis,
        updatedAtMillis,
        closedAtMillis,
        stateVersion,
        commentCount,
        transferredTo,
        classification,
        textVector,
        null,
        null);
  }

  /**
   * The reply to an issue that a maintainer reading it as a similar issue looks for: the newest
   * comment of a maintainer (the repository's owner, a member or a collaborator), else the newest
   * comment by someone other than the reporter ({@code maintainer} false). Written as {@code
   * answerText} (cut at {@link #MAX_CHARS}), {@code answerAuthor}, {@code answerAt} and {@code
   * answerByMaintainer}.
   *
   * @param author the commenter's login, may be empty
   * @param maintainer whether the commenter is a maintainer
   * @param createdAtMillis when the comment was written
   * @param text the comment
   */
  public record Answer(String author, boolean maintainer, long createdAtMillis, String text) {
    /** Characters of an answer the graph keeps. */
    public static final int MAX_CHARS = 600;

    public Answer {
      author = author == null ? "" : author;
      text = text == null ? "" : text.strip();
      if (text.length() > MAX_CHARS) {
        text = text.substring(0, MAX_CHARS);
      }
    }

    Map<String, Object> toParameter() {
      Map<String, Object> m = new HashMap<>();
      m.put("author", author);
      m.put("maintainer", maintainer);
      m.put("at", createdAtMillis);
      m.put("text", text);
      return m;
    }
  }

  /**
   * The text vector the learned classifier used for the issue, under its stable key (the SHA-256 of
   * the encoder's name, its numeric fingerprint and the word pieces it read): written as {@code
   * textVectorKey} and {@code textVector} when {@code vector} is present, so a replay finds it
   * instead of encoding again, and a similarity search can use it. {@code vector} is null when the
   * issue's state already sent this key (a comment that left the encoded text unchanged): nothing
   * is written then.
   */
  public record TextVector(String key, float[] vector) {
    public TextVector {
      java.util.Objects.requireNonNull(key, "key");
    }

    /** The vector as the graph stores it (doubles: float to double to float is exact). */
    public List<Double> asDoubles() {
      List<Double> out = new ArrayList<>(vector.length);
      for (float f : vector) {
        out.add((double) f);
      }
      return out;
    }
  }

  /**
   * The classification of an issue, as codes of the taxonomy.
   *
   * @param codes every {@link Dimension}'s code (its enum constant; for distributed-specific a
   *     Boolean, null when the text cannot tell), in {@link Dimension} order
   * @param confidence labelled dimension ({@link Dimension#LABELLED}) to confidence
   * @param evidence dimension to the rule and words that decided it
   * @param humanGiven dimensions whose value a GitHub label set
   * @param labelSource the tier that gave the labels not in {@code humanGiven} ({@link
   *     LabelSource}: {@code rules}, {@code model} or {@code llm:<model>}); those in {@code
   *     humanGiven} are {@code human}
   * @param promptVersion the prompt version of a language model's labels, else null
   * @param probabilities per dimension, the probability of each code aligned with {@link
   *     Dimension#distributionCodes()} (written as {@code <key>Probabilities}); a dimension missing
   *     here writes none
   * @param calibration per dimension, what its distribution rests on (written as {@code
   *     <key>Calibration}: {@code cv:<version>}, {@code confusion:<model>/<prompt>}, {@code
   *     prior:<epsilon>}, {@code human}); a dimension missing here removes the property
   */
  public record ClassificationRow(
      Map<Dimension, Object> codes,
      String frameworkVersion,
      Map<String, String> versions,
      Map<Dimension, Double> confidence,
      Map<Dimension, String> evidence,
      List<Dimension> humanGiven,
      String classifierVersion,
      long classifiedAtMillis,
      String labelSource,
      String promptVersion,
      Map<Dimension, List<Double>> probabilities,
      Map<Dimension, String> calibration) {

    /** A row without calibration markers. */
    public ClassificationRow(
        Map<Dimension, Object> codes,
        String frameworkVersion,
        Map<String, String> versions,
        Map<Dimension, Double> confidence,
        Map<Dimension, String> evidence,
        List<Dimension> humanGiven,
        String classifierVersion,
        long classifiedAtMillis,
        String labelSource,
        String promptVersion,
        Map<Dimension, List<Double>> probabilities) {
      this(
          codes,
          frameworkVersion,
          versions,
          confidence,
          evidence,
          humanGiven,
          classifierVersion,
          classifiedAtMillis,
          labelSource,
          promptVersion,
          probabilities,
          Map.of());
    }

    /** A row without probabilities. */
    public ClassificationRow(
        Map<Dimension, Object> codes,
        String frameworkVersion,
        Map<String, String> versions,
        Map<Dimension, Double> confidence,
        Map<Dimension, String> evidence,
        List<Dimension> humanGiven,
        String classifierVersion,
        long classifiedAtMillis,
        String labelSource,
        String promptVersion) {
      this(
          codes,
          frameworkVersion,
          versions,
          confidence,
          evidence,
          humanGiven,
          classifierVersion,
          classifiedAtMillis,
          labelSource,
          promptVersion,
          Map.of(),
          Map.of());
    }

    public ClassificationRow {
      probabilities = probabilities == null ? Map.of() : probabilities;
      calibration = calibration == null ? Map.of() : calibration;
      for (Map.Entry<Dimension, List<Double>> e : probabilities.entrySet()) {
        if (e.getValue().size() != e.getKey().distributionCodes().size()) {
          throw new IllegalArgumentException(
              e.getKey().key()
                  + " probabilities "
                  + e.getValue()
                  + " do not align with its codes "
                  + e.getKey().distributionCodes());
        }
      }
      java.util.Objects.requireNonNull(labelSource, "labelSource");
      Map<Dimension, Object> ordered = new java.util.LinkedHashMap<>();
      for (Dimension d : Dimension.values()) {
        if (!codes.containsKey(d)) {
          throw new IllegalArgumentException("no " + d.key() + " code in " + codes.keySet());
        }
        Object code = codes.get(d);
        if (code != null && !d.accepts(code)) {
          throw new IllegalArgumentException("not a " + d.key() + " code: " + code);
        }
        ordered.put(d, code);
      }
      codes = java.util.Collections.unmodifiableMap(ordered);
    }

    /** The code of one dimension. */
    public Object code(Dimension d) {
      return codes.get(d);
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
  private static boolean known(Object code) {
    return code instanceof Enum<?> e && Dimension.isCategory(e);
  }

  /** Every labelled dimension's history properties ({@link LabelHistory}). */
  private static final List<Map<String, String>> HISTORY =
      LabelHistory.parameter(Dimension.LABELLED);

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
    Map<String, Object> props = c == null ? new HashMap<>() : classificationProperties(c);
    List<Map<String, Object>> versionRows = c == null ? new ArrayList<>() : versionRows(c);
    for (Dimension d : Dimension.values()) {
      if (d.edgeParameter().isPresent()) {
        m.put(d.edgeParameter().get(), c == null ? null : edge(c, d, c.code(d)));
      }
    }
    m.put("frameworkVersion", c == null ? null : c.frameworkVersion());
    m.put("labelRank", c == null ? LabelSource.OFFLINE_RANK : c.rank());
    m.put("classification", props);
    m.put("history", c == null ? List.of() : HISTORY);
    m.put("pass", pass);
    m.put("versions", versionRows);
    boolean vector = textVector != null && textVector.vector() != null;
    m.put("errorLines", ErrorLines.of(body));
    m.put("answer", answer == null ? null : answer.toParameter());
    m.put("textVectorKey", vector ? textVector.key() : null);
    m.put("textVector", vector ? textVector.asDoubles() : null);
    return m;
  }

  /**
   * The issue node's properties of a classification: every dimension's code and probabilities, the
   * row's versions and provenance, and every labelled dimension's source, version, confidence and
   * (where no edge carries it) evidence.
   */
  private static Map<String, Object> classificationProperties(ClassificationRow c) {
    Map<String, Object> props = new HashMap<>();
    for (Dimension d : Dimension.values()) {
      props.put(d.property(), Dimension.symbol(c.code(d)));
      if (c.probabilities().containsKey(d)) {
        props.put(d.probabilitiesProperty(), c.probabilities().get(d));
      }
      // What the distribution rests on (contract 1 of issue #31); a null removes a marker an
      // earlier classification left, so the marker always describes the stored distribution.
      props.put(d.calibrationProperty(), c.calibration().get(d));
    }
    props.put("frameworkVersion", c.frameworkVersion());
    props.put("classifierVersion", c.classifierVersion());
    props.put(
        "classifiedAt",
        java.time.Instant.ofEpochMilli(c.classifiedAtMillis()).atZone(java.time.ZoneOffset.UTC));
    props.put(
        "humanGiven",
        c.humanGiven() == null ? List.of() : c.humanGiven().stream().map(Dimension::key).toList());
    // Provenance: the row's tier, its prompt (language model only) and each label's own source.
    props.put("labelSource", c.labelSource());
    props.put("labelRank", c.rank());
    props.put("promptVersion", c.promptVersion());
    for (Dimension d : Dimension.LABELLED) {
      props.put(d.sourceProperty(), c.sourceOf(d));
      props.put(d.versionProperty(), labelVersion(c, d));
      // Every labelled dimension's confidence on the issue: an UNKNOWN or NONE value has no edge
      // to carry it.
      props.put(d.confidenceProperty(), confidence(c, d));
      // A dimension without an edge keeps its evidence on the issue; an edge dimension only while
      // it names no category ("no diagnosis stated", "below threshold: ..."). A null removes what
      // an earlier classification left once the edge carries it.
      boolean onEdge = d.edgeType().isPresent() && known(c.code(d));
      props.put(d.evidenceProperty(), onEdge ? null : evidence(c, d));
    }
    return props;
  }

  /** The versions a classification reports, as {@code Version} node rows. */
  private static List<Map<String, Object>> versionRows(ClassificationRow c) {
    List<Map<String, Object>> rows = new ArrayList<>();
    if (c.versions() != null) {
      c.versions()
          .forEach(
              (component, version) ->
                  rows.add(
                      Map.of(
                          "id",
                          component + "@" + version,
                          "component",
                          component,
                          "version",
                          version)));
    }
    return rows;
  }

  /**
   * The version of one label: {@link LabelSource#HUMAN} for a label a person gave on GitHub, else
   * the classifier version of the row (an offline version, or {@code llm:<model>/<prompt>}).
   */
  static String labelVersion(ClassificationRow c, Dimension d) {
    return LabelSource.HUMAN.equals(c.sourceOf(d)) ? LabelSource.HUMAN : c.classifierVersion();
  }

  private static Double confidence(ClassificationRow c, Dimension dimension) {
    return c.confidence() == null ? null : c.confidence().get(dimension);
  }

  private static String evidence(ClassificationRow c, Dimension dimension) {
    return c.evidence() == null ? null : c.evidence().get(dimension);
  }

  private static Map<String, Object> edge(ClassificationRow c, Dimension dimension, Object code) {
    if (!known(code)) {
      return null;
    }
    Map<String, Object> e = new HashMap<>();
    e.put("code", Dimension.symbol(code));
    e.put("confidence", confidence(c, dimension));
    e.put("evidence", evidence(c, dimension));
    e.put("humanGiven", c.humanGiven() != null && c.humanGiven().contains(dimension));
    e.put("classifierVersion", c.classifierVersion());
    e.put("source", c.sourceOf(dimension));
    e.put("promptVersion", c.promptVersion());
    e.put("calibration", c.calibration().get(dimension));
    return e;
  }
}
