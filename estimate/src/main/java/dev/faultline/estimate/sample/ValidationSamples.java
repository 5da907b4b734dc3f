package dev.faultline.estimate.sample;

import dev.faultline.estimate.item.ItemModel;
import dev.faultline.graph.CypherResources;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.Values;

/**
 * Validation samples: issues drawn uniformly at random from a scope (framework, opened from, to),
 * labelled by a person and recorded in the graph, so that the scope's estimates can be corrected by
 * the classifier's error measured on them (prediction-powered inference, {@code category-shares}).
 *
 * <p>Graph shape: {@code (:ValidationSample {id, framework, from, to, seed, size, population,
 * drawnAt, importedAt})-[:DRAWN]->(:Issue)} for every drawn issue, and {@code -[:INCLUDES {<key> of
 * each dimension, labelledAt}]->(:Issue)} for every labelled one (a dimension left empty is
 * absent). The person's labels stay on the relationship: the classifier's own labels and
 * probabilities of the issue are kept, since the estimate needs both. The statements are
 * graph-model's ({@code dev/faultline/graph/sample/*.cypher}).
 */
public final class ValidationSamples {
  private static final String POPULATION = CypherResources.load("sample/population.cypher");
  private static final String RECORD_DRAW = CypherResources.load("sample/record-draw.cypher");
  private static final String DRAWN = CypherResources.load("sample/drawn.cypher");
  private static final String RECORD_LABELS = CypherResources.load("sample/record-labels.cypher");
  private static final String STATUS = CypherResources.load("sample/status.cypher");
  private static final String LABELS = CypherResources.load("sample/labels.cypher");

  private final Driver driver;
  private final String database;

  public ValidationSamples(Driver driver, String database) {
    this.driver = Objects.requireNonNull(driver, "driver");
    this.database = Objects.requireNonNull(database, "database");
  }

  /** A sample's scope: null framework, from or to means no bound. */
  public record Scope(String framework, ZonedDateTime from, ZonedDateTime to) {
    /** The scope as the JSON lines state it (ISO instants, null for no bound). */
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("framework", framework);
      m.put("from", from == null ? null : from.toInstant().toString());
      m.put("to", to == null ? null : to.toInstant().toString());
      return m;
    }
  }

  /** One drawn issue, with what a person needs to label it. */
  public record DrawnIssue(String id, String url, String title, String excerpt) {}

  /**
   * A drawn sample.
   *
   * @param population issues in the scope when it was drawn
   */
  public record Drawn(String id, Scope scope, long seed, int population, List<DrawnIssue> issues) {}

  /** Characters of an issue's body given as its excerpt. */
  public static final int EXCERPT = 800;

  /**
   * Draws {@code n} issues uniformly at random without replacement from the scope (every issue not
   * deleted or transferred, of any kind: the estimates weigh kinds by their probabilities) and
   * records the sample. Deterministic: the same scope, graph, n and seed draw the same issues.
   *
   * @throws IllegalArgumentException when the scope holds fewer than n issues, or n &lt; 1
   */
  public Drawn draw(Scope scope, int n, long seed) {
    if (n < 1) {
      throw new IllegalArgumentException("--n must be at least 1, got " + n);
    }
    Map<String, Object> params = scopeParameters(scope);
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      List<String> ids =
          session.executeRead(tx -> tx.run(POPULATION, params).list(r -> r.get("id").asString()));
      if (ids.size() < n) {
        throw new IllegalArgumentException(
            "the scope holds "
                + ids.size()
                + " issues, fewer than --n "
                + n
                + " ("
                + describe(scope)
                + ")");
      }
      List<String> chosen = choose(ids, n, seed);
      String id = sampleId(scope, n, seed);
      Map<String, Object> write = new HashMap<>(params);
      write.put("id", id);
      write.put("seed", seed);
      write.put("size", n);
      write.put("population", ids.size());
      write.put("ids", chosen);
      List<DrawnIssue> issues =
          session.executeWrite(
              tx ->
                  tx.run(RECORD_DRAW, withExcerpt(write))
                      .list(
                          r ->
                              new DrawnIssue(
                                  r.get("id").asString(),
                                  r.get("url").asString(null),
                                  r.get("title").asString(null),
                                  r.get("excerpt").asString(""))));
      return new Drawn(id, scope, seed, ids.size(), issues);
    }
  }

  private static Map<String, Object> withExcerpt(Map<String, Object> m) {
    m.put("excerpt", EXCERPT);
    return m;
  }

  /** n of the sorted ids, uniformly without replacement: a seeded partial Fisher-Yates shuffle. */
  static List<String> choose(List<String> sortedIds, int n, long seed) {
    List<String> ids = new ArrayList<>(sortedIds);
    SplittableRandom random = new SplittableRandom(seed);
    for (int k = 0; k < n; k++) {
      int j = k + random.nextInt(ids.size() - k);
      String t = ids.get(k);
      ids.set(k, ids.get(j));
      ids.set(j, t);
    }
    return List.copyOf(ids.subList(0, n));
  }

  /** The sample's id: the same scope, size and seed give the same id (drawing again is a no-op). */
  static String sampleId(Scope scope, int n, long seed) {
    String key =
        scope.framework()
            + "|"
            + instant(scope.from())
            + "|"
            + instant(scope.to())
            + "|"
            + n
            + "|"
            + seed;
    try {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return "sample-" + HexFormat.of().formatHex(h, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String instant(ZonedDateTime t) {
    return t == null ? "" : t.toInstant().toString();
  }

  private static Map<String, Object> scopeParameters(Scope scope) {
    Map<String, Object> m = new HashMap<>();
    m.put("framework", scope.framework());
    m.put("from", scope.from());
    m.put("to", scope.to());
    return m;
  }

  /** A scope in words, for messages. */
  public static String describe(Scope scope) {
    return "framework "
        + (scope.framework() == null ? "any" : scope.framework())
        + ", from "
        + (scope.from() == null ? "the start" : scope.from().toInstant())
        + ", to "
        + (scope.to() == null ? "now" : scope.to().toInstant());
  }

  /**
   * One labelled line of a sample file.
   *
   * @param line 1-based line number, for errors
   * @param labels dimension key to code (absent: left empty); distributedSpecific as true, false or
   *     null
   */
  public record LabelLine(int line, String sample, String id, Map<String, String> labels) {}

  /**
   * What an import recorded.
   *
   * @param labelled lines recorded
   * @param drawn issues the sample drew
   * @param perDimension per dimension key, drawn issues whose label of it the estimates can use
   *     (given, or implied by a kind other than BUG for a bug-only dimension)
   */
  public record Imported(
      String sample, int labelled, int drawn, Map<String, Integer> perDimension) {
    /** The dimensions labelled for fewer issues than were drawn: their estimates are partial. */
    public List<String> partial() {
      return perDimension.entrySet().stream()
          .filter(e -> e.getValue() < drawn)
          .map(Map.Entry::getKey)
          .toList();
    }
  }

  /**
   * Per dimension, how many of the labelled issues' labels the estimates can use: a label given, or
   * for a bug-only dimension ({@link ItemModel#bugOnly}) a kind other than BUG (its code is then
   * "does not apply"). The symptom class follows the symptom.
   */
  public static Map<String, Integer> labelledPerDimension(List<Map<String, Object>> labels) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Dimension d : Dimension.values()) {
      int n = 0;
      for (Map<String, Object> l : labels) {
        Object kind = l.get(Dimension.KIND.key());
        boolean implied = ItemModel.bugOnly(d) && kind != null && !"BUG".equals(kind);
        n += implied || l.get(d.key()) != null ? 1 : 0;
      }
      out.put(d.key(), n);
    }
    return out;
  }

  /**
   * One sample as {@code faultline sample status} shows it.
   *
   * @param drawn issues it drew
   * @param labelled drawn issues a person labelled
   * @param perDimension see {@link #labelledPerDimension}
   * @param addedSinceDraw issues of its scope the graph first saw after the draw (estimated without
   *     it)
   */
  public record Status(
      String id,
      Scope scope,
      long seed,
      int population,
      String drawnAt,
      String importedAt,
      int drawn,
      int labelled,
      Map<String, Integer> perDimension,
      long addedSinceDraw) {}

  /** Every sample in the graph, oldest draw first. */
  public List<Status> status() {
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      return session.executeRead(
          tx ->
              tx.run(STATUS)
                  .list(
                      r -> {
                        List<Map<String, Object>> labels =
                            r.get("labels").asList(v -> v.asMap(x -> (Object) x.asObject()));
                        return new Status(
                            r.get("id").asString(),
                            new Scope(
                                r.get("framework").asString(null),
                                r.get("from").isNull() ? null : r.get("from").asZonedDateTime(),
                                r.get("to").isNull() ? null : r.get("to").asZonedDateTime()),
                            r.get("seed").asLong(0),
                            r.get("population").asInt(0),
                            r.get("drawnAt").asString(null),
                            r.get("importedAt").asString(null),
                            r.get("drawn").asInt(),
                            labels.size(),
                            labelledPerDimension(labels),
                            r.get("added").asLong());
                      }));
    }
  }

  /**
   * Checks every line, then records all of them in one transaction (nothing is written when a line
   * is bad).
   *
   * @throws IllegalArgumentException naming the first bad line: an unknown code, an issue not drawn
   *     in that sample (or not in the graph), lines of two samples, a sample not in the graph
   */
  public Imported importLabels(List<LabelLine> lines) {
    if (lines.isEmpty()) {
      throw new IllegalArgumentException("the file holds no labelled line");
    }
    String sample = lines.get(0).sample();
    Taxonomy taxonomy = Taxonomy.load();
    for (LabelLine l : lines) {
      if (!Objects.equals(sample, l.sample())) {
        throw new IllegalArgumentException(
            "line "
                + l.line()
                + ": sample '"
                + l.sample()
                + "', but line "
                + lines.get(0).line()
                + " is of sample '"
                + sample
                + "': import one sample's file at a time");
      }
      checkCodes(l, taxonomy);
    }
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      return session.executeWrite(
          tx -> {
            var found = tx.run(DRAWN, Values.parameters("id", sample)).list();
            if (found.isEmpty()) {
              throw new IllegalArgumentException(
                  "line "
                      + lines.get(0).line()
                      + ": sample '"
                      + sample
                      + "' was not drawn in this graph (a file from another graph or scope?)");
            }
            List<Object> drawn = found.get(0).get("ids").asList();
            for (LabelLine l : lines) {
              if (!drawn.contains(l.id())) {
                throw new IllegalArgumentException(
                    "line "
                        + l.line()
                        + ": issue '"
                        + l.id()
                        + "' was not drawn in sample '"
                        + sample
                        + "' (not in the graph, or from another scope)");
              }
            }
            List<Map<String, Object>> rows = new ArrayList<>();
            for (LabelLine l : lines) {
              Map<String, Object> labels = new HashMap<>(l.labels());
              String symptom = l.labels().get(Dimension.SYMPTOM.key());
              if (symptom != null) {
                labels.put(
                    Dimension.SYMPTOM_CLASS.key(),
                    taxonomy.symptomClassOf(symptom).orElse(symptom));
              }
              rows.add(Map.of("id", l.id(), "labels", labels));
            }
            tx.run(RECORD_LABELS, Values.parameters("sample", sample, "rows", rows));
            List<Map<String, Object>> given =
                tx.run(LABELS, Values.parameters("id", sample))
                    .list(r -> r.get("labels").asMap(v -> (Object) v.asObject()));
            return new Imported(sample, lines.size(), drawn.size(), labelledPerDimension(given));
          });
    }
  }

  private static void checkCodes(LabelLine l, Taxonomy taxonomy) {
    for (Map.Entry<String, String> e : l.labels().entrySet()) {
      Dimension d =
          Dimension.ofKey(e.getKey())
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "line " + l.line() + ": unknown field " + e.getKey()));
      String code = e.getValue();
      boolean ok =
          d.coded()
              ? taxonomy.codes(d).contains(code) || d.symbols().contains(code)
              : List.of("true", "false", "null").contains(code);
      if (!ok) {
        throw new IllegalArgumentException(
            "line "
                + l.line()
                + ": unknown "
                + d.field()
                + " code '"
                + code
                + "' (codes: "
                + (d.coded() ? String.join(", ", d.symbols()) : "true, false, null")
                + ")");
      }
    }
    if (!l.labels().containsKey(Dimension.KIND.key())) {
      throw new IllegalArgumentException(
          "line " + l.line() + ": kind is empty: every labelled issue needs its kind");
    }
  }
}
