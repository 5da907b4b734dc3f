package dev.faultline.graph.query;

import dev.faultline.graph.ConfidencePolicy;
import dev.faultline.graph.CypherResources;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.TransactionConfig;
import org.neo4j.driver.Value;
import org.neo4j.driver.types.MapAccessor;
import org.neo4j.driver.types.Node;
import org.neo4j.driver.types.Relationship;
import org.neo4j.driver.types.TypeSystem;

/**
 * The named Cypher queries of {@code dev/faultline/graph/queries/}, listed in {@code
 * queries/index.txt}, each a {@code .cypher} file with a documented header (see {@link
 * QueryDefinition}). Runs one by name in a read transaction function (retried by the driver on
 * transient errors) and returns plain Java rows.
 *
 * <p>Result values are converted so that callers need no driver types: integers are {@code Long},
 * floats {@code Double}, temporal values ISO-8601 strings ({@code 2024-05-01T12:00:00Z}, {@code
 * 2024-05-01}), lists {@code List}, maps and nodes/relationships {@code Map} (a node's or
 * relationship's properties).
 *
 * <p>A query whose figures need every issue's probabilities names a {@link ScopeEstimator} in its
 * header; the estimators are services found by name on the classpath ({@link ScopeEstimator#named},
 * the {@code estimate} module's). The library refuses to load when a query names one that is not
 * there, with the query and the module to add.
 *
 * <p>Thread-safe: the definitions are immutable and the driver is thread-safe.
 */
public final class QueryLibrary {
  /** The index of query files, one file name per line. */
  public static final String INDEX = "queries/index.txt";

  /** Default transaction timeout of one query. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private final Driver driver;
  private final String database;
  private final TransactionConfig transactionConfig;
  private final Map<String, QueryDefinition> queries;
  private final Map<String, ScopeEstimator> estimators;
  private final ConfidencePolicy confidence;

  /** A library of the bundled queries, run against {@code database} with the default timeout. */
  public QueryLibrary(Driver driver, String database) {
    this(driver, database, DEFAULT_TIMEOUT);
  }

  /** A library of the bundled queries, each run with at most {@code timeout} per transaction. */
  public QueryLibrary(Driver driver, String database, Duration timeout) {
    this(driver, database, timeout, ConfidencePolicy.calibrated());
  }

  /**
   * A library of the bundled queries whose {@code minConfidence} parameters default to {@code
   * confidence} (the labels counted when a caller gives no bar).
   */
  public QueryLibrary(
      Driver driver, String database, Duration timeout, ConfidencePolicy confidence) {
    this(driver, database, timeout, confidence, ScopeEstimator::named);
  }

  /**
   * As {@link #QueryLibrary(Driver, String, Duration, ConfidencePolicy)}, with the estimators found
   * by {@code estimators} (by name) instead of on the classpath.
   *
   * @throws IllegalStateException when a query names an estimator {@code estimators} does not have
   */
  public QueryLibrary(
      Driver driver,
      String database,
      Duration timeout,
      ConfidencePolicy confidence,
      Function<String, Optional<ScopeEstimator>> estimators) {
    this.driver = Objects.requireNonNull(driver, "driver");
    this.database = Objects.requireNonNull(database, "database");
    this.transactionConfig = TransactionConfig.builder().withTimeout(timeout).build();
    this.confidence = Objects.requireNonNull(confidence, "confidence");
    this.queries = index(loadDefinitions());
    this.estimators = resolve(queries.values(), estimators);
  }

  /**
   * The confidence bar of {@code minConfidence} when a caller gives none (or gives {@code
   * default}).
   */
  public ConfidencePolicy defaultConfidence() {
    return confidence;
  }

  /** The bundled query definitions, in index order; needs no database. */
  public static List<QueryDefinition> loadDefinitions() {
    List<QueryDefinition> definitions = new ArrayList<>();
    for (String line : CypherResources.load(INDEX).lines().toList()) {
      String file = line.strip();
      if (file.isEmpty() || file.startsWith("#")) {
        continue;
      }
      definitions.add(QueryDefinition.parse(file, CypherResources.load("queries/" + file)));
    }
    index(definitions);
    return List.copyOf(definitions);
  }

  private static Map<String, QueryDefinition> index(List<QueryDefinition> definitions) {
    Map<String, QueryDefinition> byName = new LinkedHashMap<>();
    for (QueryDefinition d : definitions) {
      if (byName.put(d.name(), d) != null) {
        throw new IllegalStateException(
            "Two query files declare the name '" + d.name() + "': rename one");
      }
    }
    return byName;
  }

  /** Every query, in index order. */
  public List<QueryDefinition> list() {
    return List.copyOf(queries.values());
  }

  /** The query of that name. */
  public Optional<QueryDefinition> definition(String name) {
    return Optional.ofNullable(queries.get(name));
  }

  /**
   * Runs a query with parameters given as text (converted and defaulted by {@link
   * QueryDefinition#bind}).
   *
   * @throws IllegalArgumentException for an unknown query, an unknown or missing parameter or a bad
   *     value
   */
  public List<Map<String, Object>> run(String name, Map<String, String> parameters) {
    QueryDefinition query = require(name);
    return execute(query, query.bind(parameters, confidence));
  }

  /** Runs a query with no parameters beyond the defaults. */
  public List<Map<String, Object>> run(String name) {
    return run(name, Map.of());
  }

  private QueryDefinition require(String name) {
    QueryDefinition query = queries.get(name);
    if (query == null) {
      throw new IllegalArgumentException(
          "unknown query '" + name + "': known queries are " + String.join(", ", queries.keySet()));
    }
    return query;
  }

  private List<Map<String, Object>> execute(QueryDefinition query, Map<String, Object> parameters) {
    List<Map<String, Object>> rows;
    try (var session = driver.session(SessionConfig.forDatabase(database))) {
      rows =
          session.executeRead(
              tx -> tx.run(query.cypher(), parameters).list(QueryLibrary::toRow),
              transactionConfig);
    }
    ScopeEstimator estimator = estimators.get(query.name());
    return estimator == null ? rows : estimator.estimate(query, rows, parameters);
  }

  /**
   * The estimator of every query whose header names one, by query name.
   *
   * @throws IllegalStateException naming the first query whose estimator is not found
   */
  static Map<String, ScopeEstimator> resolve(
      Iterable<QueryDefinition> definitions,
      Function<String, Optional<ScopeEstimator>> estimators) {
    Map<String, ScopeEstimator> out = new LinkedHashMap<>();
    for (QueryDefinition d : definitions) {
      if (d.estimator() == null) {
        continue;
      }
      ScopeEstimator e =
          estimators
              .apply(d.estimator())
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "query '"
                              + d.name()
                              + "' names the estimator '"
                              + d.estimator()
                              + "', which is not on the classpath: estimators are"
                              + " java.util.ServiceLoader services of "
                              + ScopeEstimator.class.getName()
                              + "; the bundled ones are in the faultline-estimate module, add it to"
                              + " the dependencies of the module that runs queries"));
      e.check(d);
      out.put(d.name(), e);
    }
    return Map.copyOf(out);
  }

  /** The estimator a query of this library names, if any. */
  public Optional<ScopeEstimator> estimator(String queryName) {
    return Optional.ofNullable(estimators.get(queryName));
  }

  /** A record as an ordered map of plain Java values. */
  static Map<String, Object> toRow(Record record) {
    Map<String, Object> row = new LinkedHashMap<>();
    for (String key : record.keys()) {
      row.put(key, toJava(record.get(key)));
    }
    return row;
  }

  /** A driver value as a plain Java value; see the class comment for the mapping. */
  static Object toJava(Value value) {
    if (value == null || value.isNull()) {
      return null;
    }
    TypeSystem types = TypeSystem.getDefault();
    var type = value.type();
    if (type.equals(types.BOOLEAN())) {
      return value.asBoolean();
    } else if (type.equals(types.INTEGER())) {
      return value.asLong();
    } else if (type.equals(types.FLOAT())) {
      return value.asDouble();
    } else if (type.equals(types.STRING())) {
      return value.asString();
    } else if (type.equals(types.DATE_TIME())) {
      return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(
          value.asZonedDateTime().toOffsetDateTime());
    } else if (type.equals(types.DATE())) {
      return value.asLocalDate().toString();
    } else if (type.equals(types.LOCAL_DATE_TIME())) {
      return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(value.asLocalDateTime());
    } else if (type.equals(types.TIME())) {
      return DateTimeFormatter.ISO_OFFSET_TIME.format(value.asOffsetTime());
    } else if (type.equals(types.LOCAL_TIME())) {
      return DateTimeFormatter.ISO_LOCAL_TIME.format(value.asLocalTime());
    } else if (type.equals(types.DURATION())) {
      return value.asIsoDuration().toString();
    } else if (type.equals(types.LIST())) {
      List<Object> list = new ArrayList<>(value.size());
      value.values().forEach(v -> list.add(toJava(v)));
      return list;
    } else if (type.equals(types.MAP())) {
      return toMap(value);
    } else if (type.equals(types.NODE())) {
      Node node = value.asNode();
      return toMap(node);
    } else if (type.equals(types.RELATIONSHIP())) {
      Relationship relationship = value.asRelationship();
      return toMap(relationship);
    } else if (type.equals(types.POINT())) {
      var point = value.asPoint();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("srid", (long) point.srid());
      m.put("x", point.x());
      m.put("y", point.y());
      if (!Double.isNaN(point.z())) {
        m.put("z", point.z());
      }
      return m;
    } else if (type.equals(types.BYTES())) {
      return value.asByteArray();
    }
    return value.asObject();
  }

  private static Map<String, Object> toMap(MapAccessor value) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (String key : value.keys()) {
      map.put(key, toJava(value.get(key)));
    }
    return map;
  }
}
