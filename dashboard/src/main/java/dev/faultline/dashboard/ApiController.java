package dev.faultline.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.graph.query.QueryLibrary;
import dev.faultline.schemas.AlertKind;
import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Kind;
import io.javalin.http.Context;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.Period;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The read-only JSON API under {@code /api/}: one small method per endpoint, each validating its
 * parameters ({@link ApiParams}, {@link Scope}), running named queries of the {@link QueryLibrary}
 * (aggregation happens in Neo4j, lists are limited) and answering JSON.
 */
final class ApiController {
  /**
   * Every {@link Dimension} by its JSON name, in the order the dashboard's menu shows them (symptom
   * first).
   */
  static final List<String> DIMENSIONS = Dimension.API_ORDER.stream().map(Dimension::key).toList();

  static final List<String> BUCKETS = List.of("week", "month");

  /** Every {@link Kind} but UNKNOWN. */
  static final List<String> KINDS =
      Arrays.stream(Kind.values()).filter(k -> k != Kind.UNKNOWN).map(Kind::name).toList();

  static final List<String> ALERT_KINDS =
      Arrays.stream(AlertKind.values()).map(AlertKind::name).toList();
  static final int MAX_PAGE_SIZE = 200;

  /** Every symptom × fix pattern cell there can be, with room to spare. */
  static final int MAX_FIX_PATTERN_ROWS = 2_000;

  private final QueryLibrary queries;
  private final ObjectMapper mapper;
  private final SeedFigures seeds;
  private final SimilarSearch similar;
  private final Clock clock;

  ApiController(
      QueryLibrary queries, ObjectMapper mapper, SeedFigures seeds, SimilarSearch similar) {
    this(queries, mapper, seeds, similar, Clock.systemUTC());
  }

  /**
   * @param clock what "now" is for the release view (a release younger than its comparison period
   *     is compared over the days elapsed)
   */
  ApiController(
      QueryLibrary queries,
      ObjectMapper mapper,
      SeedFigures seeds,
      SimilarSearch similar,
      Clock clock) {
    this.queries = queries;
    this.mapper = mapper;
    this.seeds = seeds;
    this.similar = similar;
    this.clock = clock;
  }

  /**
   * {@code GET /api/filters}: the choices of the filters (frameworks with their releases) and of
   * the trend chart.
   */
  void filters(Context ctx) {
    params(ctx);
    Map<String, Object> body = new LinkedHashMap<>();
    List<Map<String, Object>> frameworks = new ArrayList<>();
    for (Map<String, Object> row : queries.run("frameworks-and-releases")) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("name", row.get("framework"));
      f.put("issues", row.get("issues"));
      f.put("releases", row.get("releases"));
      frameworks.add(f);
    }
    body.put("frameworks", frameworks);
    body.put("dimensions", DIMENSIONS);
    body.put("buckets", BUCKETS);
    body.put("kinds", KINDS);
    body.put("confidence", queries.defaultConfidence().toMap());
    json(ctx, body);
  }

  /**
   * The counting of a card: {@code estimate} (expected counts with 90% intervals) or {@code labels}
   * (labels above the bar counted).
   */
  static final List<String> COUNTING = List.of("estimate", "labels");

  /**
   * Whether a request counts labels: its {@code mode}, else whether it gave a bar ({@code
   * minConfidence}: the page's "Labels counted" switch). Without either, every figure is an
   * estimate.
   */
  private static boolean countsLabels(ApiParams p, Scope scope) {
    return p.choice("mode", COUNTING).map("labels"::equals).orElse(scope.confidenceGiven());
  }

  /** The estimated query's {@code mode} for a request. */
  private static String queryMode(ApiParams p, Scope scope) {
    return countsLabels(p, scope) ? "confident" : "estimate";
  }

  /**
   * {@code GET /api/releases}: bug reports filed against each release with its date, per framework:
   * expected counts with 90% intervals ({@code new-bugs-per-release}), or labels counted with
   * {@code mode=labels}.
   */
  void releases(Context ctx) {
    ApiParams p = scopedParams(ctx, "includePrereleases", "mode");
    Scope scope = scope(p);
    Map<String, String> q = new LinkedHashMap<>();
    if (scope.framework() != null) {
      q.put("framework", scope.framework());
    }
    // A chosen release is highlighted among its framework's releases rather than shown alone.
    if (scope.release() == null) {
      put(q, "since", scope.from());
      put(q, "to", scope.to());
    }
    q.put("includePrereleases", String.valueOf(p.bool("includePrereleases", true)));
    scope.confidenceParameter(q);
    q.put("mode", queryMode(p, scope));
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map<String, Object> r : queries.run("new-bugs-per-release", q)) {
      rows.add(Shapes.release(r));
    }
    Map<String, Object> body = scoped(scope);
    body.put("mode", q.get("mode"));
    body.put("releases", rows);
    body.put("bugs", Math.round(10 * sumOf(rows, "bugs")) / 10.0);
    body.put("coverage", coverage(sum(rows, "inScope"), sum(rows, "labelled")));
    json(ctx, body);
  }

  /** Days before a release and from it that the release view compares. */
  static final int SHIFT_DAYS_BEFORE = 56;

  static final int SHIFT_DAYS_AFTER = 28;

  /**
   * {@code GET /api/release-shifts}: for each of the newest releases ({@code limit}, 12), the
   * categories of one dimension whose rate of bug reports in the 28 days from the release (or the
   * whole days elapsed so far, for a younger release: the row says "n days so far") differs from
   * the 56 days before ({@link ReleaseShifts}). By default the counts are expected counts with
   * their variances ({@code category-trends}' estimates), compared by the score test with the
   * classification variance added; with the "Labels counted" switch ({@code minConfidence}, or
   * {@code mode=labels}) labels are counted and compared by the exact conditional test. Read
   * through the {@code new-bugs-per-release} and {@code category-trends} named queries.
   */
  void releaseShifts(Context ctx) {
    ApiParams p = params(ctx, "framework", "dimension", "limit", "minConfidence", "mode");
    String dimension = p.choice("dimension", DIMENSIONS).orElse("symptom");
    int limit = p.integer("limit", 12, 1, 100);
    Map<String, String> rq = new LinkedHashMap<>();
    p.framework("framework").ifPresent(v -> rq.put("framework", v));
    boolean labels =
        p.choice("mode", COUNTING)
            .map("labels"::equals)
            .orElse(p.text("minConfidence").isPresent());
    Map<String, String> counting = new LinkedHashMap<>();
    counting.put("mode", labels ? "confident" : "estimate");
    if (p.text("minConfidence").isPresent()) {
      counting.put(
          "minConfidence", p.confidence("minConfidence", queries.defaultConfidence()).toText());
    }
    List<Map<String, Object>> releases = new ArrayList<>(queries.run("new-bugs-per-release", rq));
    releases.sort(
        java.util.Comparator.comparing(
                (Map<String, Object> r) -> String.valueOf(r.get("publishedAt")))
            .reversed());
    Instant now = clock.instant();
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> r : releases.subList(0, Math.min(limit, releases.size()))) {
      if (r.get("publishedAt") != null) {
        out.add(releaseShift(r, dimension, counting, now));
      }
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("dimension", dimension);
    body.put("mode", labels ? "labels" : "estimate");
    body.put("daysBefore", SHIFT_DAYS_BEFORE);
    body.put("daysAfter", SHIFT_DAYS_AFTER);
    body.put(
        "test",
        labels
            ? "labels counted: exact conditional test of two Poisson rates, Bonferroni over each"
                + " release's categories at 0.05"
            : "expected counts: score test of two Poisson rates with the estimates' variances added"
                + " (the exact conditional test where both counts are whole and certain), Bonferroni"
                + " over each release's categories at 0.05");
    body.put("releases", out);
    json(ctx, body);
  }

  /** One release's row of the release view, seen at {@code now}. */
  private Map<String, Object> releaseShift(
      Map<String, Object> r, String dimension, Map<String, String> counting, Instant now) {
    Instant published = OffsetDateTime.parse(String.valueOf(r.get("publishedAt"))).toInstant();
    ReleaseShifts.Periods periods =
        ReleaseShifts.periods(published, now, SHIFT_DAYS_BEFORE, SHIFT_DAYS_AFTER);
    String framework = String.valueOf(r.get("framework"));
    List<ReleaseShifts.Shift> shifts =
        ReleaseShifts.compare(
            categoryCounts(framework, dimension, counting, periods.from(), periods.release()),
            categoryCounts(framework, dimension, counting, periods.release(), periods.to()),
            periods,
            0.05);
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("framework", r.get("framework"));
    row.put("release", r.get("release"));
    row.put("version", r.get("version"));
    row.put("publishedAt", r.get("publishedAt"));
    row.put("from", periods.from().toString());
    row.put("to", periods.to().toString());
    row.put("daysBefore", periods.daysBefore());
    row.put("daysAfter", periods.daysAfter());
    row.put("soFar", periods.soFar());
    row.put("differing", shifts.stream().filter(ReleaseShifts.Shift::differs).count());
    row.put("categories", shifts);
    return row;
  }

  /**
   * Bug reports per category of a framework opened in [from, to): the periods' expected counts and
   * variances summed (the items of different months are independent), or labels counted.
   */
  private Map<String, ReleaseShifts.Count> categoryCounts(
      String framework, String dimension, Map<String, String> counting, Instant from, Instant to) {
    Map<String, ReleaseShifts.Count> counts = new java.util.TreeMap<>();
    if (!from.isBefore(to)) {
      return counts;
    }
    Map<String, String> q = new LinkedHashMap<>(counting);
    q.put("dimension", dimension);
    q.put("bucket", "month");
    q.put("framework", framework);
    q.put("from", from.toString());
    q.put("to", to.toString());
    for (Map<String, Object> row : queries.run("category-trends", q)) {
      ReleaseShifts.Count c =
          ReleaseShifts.Count.of(
              ((Number) row.get("estimate")).doubleValue(),
              number(row.get("estimateLow")),
              number(row.get("estimateHigh")));
      counts.merge(String.valueOf(row.get("code")), c, ReleaseShifts.Count::plus);
    }
    return counts;
  }

  private static Double number(Object value) {
    return value == null ? null : ((Number) value).doubleValue();
  }

  /** {@code GET /api/trends}: issues per period and category of one dimension, as chart series. */
  void trends(Context ctx) {
    ApiParams p = scopedParams(ctx, "dimension", "bucket", "kind", "includeUnknown");
    Scope scope = scope(p);
    String dimension = p.choice("dimension", DIMENSIONS).orElse("symptom");
    String bucket = p.choice("bucket", BUCKETS).orElse("month");
    Map<String, String> q = scope.queryParameters();
    q.put("dimension", dimension);
    q.put("bucket", bucket);
    q.put("kind", p.choice("kind", KINDS).orElse("BUG"));
    q.put("includeUnknown", String.valueOf(p.bool("includeUnknown", false)));
    // the "Labels counted" switch (a bar given) counts labels; else every point is an estimate
    q.put("mode", scope.confidenceGiven() ? "confident" : "estimate");
    Map<String, Object> body = scoped(scope);
    body.put("mode", q.get("mode"));
    body.put("dimension", dimension);
    body.put("bucket", bucket);
    body.put("kind", q.get("kind"));
    Period step = "week".equals(bucket) ? Period.ofWeeks(1) : Period.ofMonths(1);
    List<Map<String, Object>> rows = queries.run("category-trends", q);
    body.putAll(Shapes.trendSeries(rows, step));
    body.put("coverage", trendCoverage(rows));
    json(ctx, body);
  }

  /** The counting modes of {@code category-shares}: estimates first (the default). */
  static final List<String> SHARE_MODES = List.of("estimate", "confident", "all");

  /**
   * {@code GET /api/shares}: the shares of one dimension's codes among the bug reports (or another
   * kind) in scope, each an expected count with its 90% interval ({@code category-shares}), the
   * number of labels above the bar beside it, and the method that made it.
   */
  void shares(Context ctx) {
    ApiParams p = scopedParams(ctx, "dimension", "kind", "mode");
    Scope scope = scope(p);
    Map<String, String> q = scope.queryParameters();
    String dimension = p.choice("dimension", DIMENSIONS).orElse("symptom");
    q.put("dimension", dimension);
    q.put("kind", p.choice("kind", KINDS).orElse("BUG"));
    q.put(
        "mode",
        p.choice("mode", SHARE_MODES).orElse(scope.confidenceGiven() ? "confident" : "estimate"));
    List<Map<String, Object>> rows = queries.run("category-shares", q);
    Map<String, Object> body = scoped(scope);
    body.put("dimension", dimension);
    body.put("kind", q.get("kind"));
    body.put("mode", q.get("mode"));
    body.put("rows", rows);
    Map<String, Object> first = rows.isEmpty() ? Map.of() : rows.get(0);
    body.put("method", first.get("method"));
    body.put("sampleSize", first.get("sampleSize"));
    body.put("inScope", first.get("inScope"));
    body.put("expectedInScope", first.get("expectedInScope"));
    body.put("coverage", first.get("coverage"));
    json(ctx, body);
  }

  /**
   * {@code GET /api/studies}: every figure the seed studies publish beside this data's estimate and
   * its 90% interval ({@code study-figures}).
   */
  void studies(Context ctx) {
    Scope scope = scope(scopedParams(ctx));
    Map<String, String> q = scope.queryParameters();
    q.remove("minConfidence"); // estimates count every issue with its probabilities
    Map<String, Object> body = scoped(scope);
    body.put("figures", queries.run("study-figures", q));
    body.put("studies", seeds.studies());
    json(ctx, body);
  }

  /** {@code GET /api/heatmap}: bug reports per stage and symptom as a matrix. */
  void heatMap(Context ctx) {
    ApiParams p = scopedParams(ctx, "mode");
    Scope scope = scope(p);
    Map<String, Object> body = scoped(scope);
    Map<String, String> q = scope.queryParameters();
    String mode = countsLabels(p, scope) ? "labels" : "estimate";
    // expected counts from each bug report's joint probabilities, or labels above the bar counted
    q.put("mode", mode.equals("estimate") ? "estimate" : "confident");
    List<Map<String, Object>> rows = queries.run("stage-symptom-matrix", q);
    body.putAll(Shapes.estimateHeatMap(rows, s -> TAXONOMY.symptomClassOf(s).orElse(null)));
    body.put("mode", mode);
    body.put("coverage", pairCoverage(q, rows));
    json(ctx, body);
  }

  /** The heat map's modes: expected counts (the default) or labels counted above the bar. */
  static final List<String> HEAT_MAP_MODES = List.of("estimate", "labels");

  private static final dev.faultline.schemas.taxonomy.Taxonomy TAXONOMY =
      dev.faultline.schemas.taxonomy.Taxonomy.load();

  /**
   * {@code GET /api/fix-patterns}: merged fixes per symptom and fix pattern (P1's fix analysis) as
   * a matrix, with the rows' fix sizes: expected fixes with 90% intervals, or labels counted with
   * {@code mode=labels} (or a bar); {@code includeUnknown} also counts fixes of unknown pattern.
   */
  void fixPatterns(Context ctx) {
    ApiParams p = scopedParams(ctx, "includeUnknown", "mode");
    Scope scope = scope(p);
    Map<String, Object> body = scoped(scope);
    Map<String, String> q = scope.queryParameters();
    q.put("includeUnknown", String.valueOf(p.bool("includeUnknown", false)));
    q.put("limit", String.valueOf(MAX_FIX_PATTERN_ROWS));
    // expected fixes from the bug reports' and the changes' distributions (#31), or labels counted
    q.put("mode", queryMode(p, scope));
    List<Map<String, Object>> rows = queries.run("fix-pattern-per-symptom", q);
    body.putAll(Shapes.fixPatterns(rows));
    body.put("mode", countsLabels(p, scope) ? "labels" : "estimate");
    // each change's labels are one cell: the labelled changes are the cells' labelled summed
    body.put(
        "coverage",
        rows.isEmpty()
            ? scopeCoverage("fix-pattern-per-symptom", q, rows)
            : coverage((Number) rows.get(0).get("inScope"), sum(rows, "labelled")));
    json(ctx, body);
  }

  /**
   * {@code GET /api/distributed-share}: share of distributed-specific issues overall and per
   * framework, each an estimate with its 90% interval (labels counted with {@code mode=labels}),
   * with P2's.
   */
  void distributedShare(Context ctx) {
    ApiParams p = scopedParams(ctx, "kind", "mode");
    Scope scope = scope(p);
    Map<String, String> q = scope.queryParameters();
    q.remove("framework");
    q.put("kind", p.choice("kind", KINDS).orElse("BUG"));
    q.put("mode", queryMode(p, scope));
    List<Map<String, Object>> rows = queries.run("distributed-specific-share", q);
    Map<String, Object> body = scoped(scope);
    Map<String, Object> overall = rows.isEmpty() ? null : rows.get(0);
    List<Map<String, Object>> perFramework = rows.stream().skip(1).toList();
    if (scope.framework() != null) {
      // The chosen framework's row is "this data"; the others stay for comparison.
      overall =
          perFramework.stream()
              .filter(r -> scope.framework().equals(r.get("framework")))
              .findFirst()
              .orElse(emptyShare(scope.framework()));
    }
    body.put("mode", q.get("mode"));
    body.put("share", overall);
    body.put("overall", rows.isEmpty() ? emptyShare(null) : rows.get(0));
    body.put("frameworks", perFramework);
    body.put("seed", seeds.figure("distributedSpecificShare"));
    json(ctx, body);
  }

  private static Map<String, Object> emptyShare(String framework) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scope", "framework");
    m.put("framework", framework);
    m.put("estimate", 0.0);
    m.put("estimateLow", 0.0);
    m.put("estimateHigh", 0.0);
    m.put("share", null);
    m.put("shareLow", null);
    m.put("shareHigh", null);
    m.put("method", null);
    m.put("basis", null);
    m.put("note", "no issue of this framework in scope");
    m.put("labelled", 0L);
    m.put("sampleSize", 0L);
    m.put("inScope", 0L);
    m.put("expectedInScope", 0.0);
    m.put("coverage", null);
    return m;
  }

  /**
   * {@code GET /api/headline}: the scope's bug reports and open bug reports, each an expected count
   * with its 90% interval, method and basis ({@code headline-summary}), and under {@code closing}
   * the median days to close of its closed bug reports and the small-fix share of the merged
   * changes fixing them, estimates with intervals ({@code headline-closing}); labels counted with
   * {@code mode=labels} or the "Labels counted" switch. The seed studies' figures beside this
   * data's are {@code /api/studies} (one table).
   */
  void headline(Context ctx) {
    ApiParams p = scopedParams(ctx, "mode");
    Scope scope = scope(p);
    Map<String, String> q = scope.queryParameters();
    q.put("mode", queryMode(p, scope));
    List<Map<String, Object>> rows = queries.run("headline-summary", q);
    Map<String, Object> bugs = rows.isEmpty() ? Map.of() : rows.get(0);
    Map<String, Object> body = scoped(scope);
    body.put("mode", q.get("mode"));
    body.put("bugs", bugs);
    body.put("coverage", coverage((Number) bugs.get("inScope"), (Number) bugs.get("labelled")));
    Map<String, Object> closing = new LinkedHashMap<>();
    for (Map<String, Object> r : queries.run("headline-closing", q)) {
      closing.put(String.valueOf(r.get("metric")), r);
    }
    body.put("closing", closing);
    body.put("studies", seeds.studies());
    body.put("seedSource", seeds.source());
    json(ctx, body);
  }

  /**
   * {@code GET /api/alerts}: emerging-category alerts, newest first, with explanations and example
   * issues.
   */
  void alerts(Context ctx) {
    ApiParams p = params(ctx, "framework", "dimension", "kind", "since", "limit");
    Map<String, String> q = new LinkedHashMap<>();
    p.framework("framework").ifPresent(v -> q.put("framework", v));
    p.choice("dimension", DIMENSIONS).ifPresent(v -> q.put("dimension", v));
    p.choice("kind", ALERT_KINDS).ifPresent(v -> q.put("kind", v));
    put(q, "since", p.instant("since").orElse(null));
    q.put("limit", String.valueOf(p.integer("limit", 50, 1, MAX_PAGE_SIZE)));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("alerts", queries.run("emerging-categories", q));
    json(ctx, body);
  }

  /**
   * {@code GET /api/alerts.atom}: the alerts in force as an Atom feed, newest first ({@code
   * framework} filters, {@code limit} caps: 50).
   */
  void alertsAtom(Context ctx) {
    ApiParams p = params(ctx, "framework", "limit");
    Map<String, String> q = new LinkedHashMap<>();
    String framework = p.framework("framework").orElse(null);
    if (framework != null) {
      q.put("framework", framework);
    }
    q.put("limit", String.valueOf(p.integer("limit", 50, 1, MAX_PAGE_SIZE)));
    String self = ctx.fullUrl();
    ctx.contentType(AlertFeed.CONTENT_TYPE)
        .result(AlertFeed.atom(queries.run("emerging-categories", q), self, framework));
  }

  /** {@code GET /api/issues}: one page of issues, newest first, with the filters and the total. */
  void issues(Context ctx) {
    ApiParams p = scopedParams(ctx, "kind", "symptom", "stage", "page", "size");
    Scope scope = scope(p);
    int size = p.integer("size", 25, 1, MAX_PAGE_SIZE);
    int page = p.integer("page", 0, 0, 1_000_000);
    Map<String, String> q = new LinkedHashMap<>();
    if (scope.framework() != null) {
      q.put("framework", scope.framework());
    }
    if (scope.release() != null) {
      // The list is exact: issues filed against the release, within any range the user gave.
      q.put("release", scope.release());
    }
    p.instant("from").ifPresent(v -> put(q, "from", v));
    p.instant("to").ifPresent(v -> put(q, "to", v));
    p.choice("kind", KINDS).ifPresent(v -> q.put("kind", v));
    p.code("symptom").ifPresent(v -> q.put("symptom", v));
    p.code("stage").ifPresent(v -> q.put("stage", v));
    q.put("skip", String.valueOf((long) page * size));
    q.put("limit", String.valueOf(size));
    Map<String, Object> row = queries.run("issue-list", q).get(0);
    Map<String, Object> body = scoped(scope);
    body.put("total", row.get("total"));
    body.put("page", page);
    body.put("size", size);
    body.put("issues", row.get("issues"));
    json(ctx, body);
  }

  /**
   * {@code GET /api/issue?id=owner/repo#n}: one issue's drill-down with the issues most like it
   * ({@code similar}, default 5, 0 for none; query {@code similar-issues}) and what resolved each.
   */
  void issue(Context ctx) {
    ApiParams p = params(ctx, "id", "similar");
    String id = p.issueId("id");
    int similar = p.integer("similar", 5, 0, 50);
    List<Map<String, Object>> rows = queries.run("issue-drill-down", Map.of("issue", id));
    if (rows.isEmpty()) {
      throw ApiError.notFound("No issue " + id + " in the graph");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("issue", rows.get(0));
    body.put(
        "similar",
        similar == 0
            ? List.of()
            : queries.run("similar-issues", Map.of("issue", id, "limit", String.valueOf(similar))));
    json(ctx, body);
  }

  /**
   * {@code POST /api/similar} with a JSON body {@code {"title", "text", "framework", "limit"}}:
   * "find issues like this" for a report not filed yet ({@link SimilarSearch}), each result with
   * what resolved it. Writes nothing.
   */
  void similarToText(Context ctx) {
    params(ctx);
    com.fasterxml.jackson.databind.JsonNode body;
    try {
      body = mapper.readTree(ctx.body());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw ApiError.badParameter("body", "not JSON: " + e.getOriginalMessage());
    }
    json(ctx, similar.search(SimilarSearch.parse(body)));
  }

  /** The kinds {@code /api/label-sources} takes: every {@link #KINDS kind}, or {@code all}. */
  static final List<String> LABEL_SOURCE_KINDS =
      java.util.stream.Stream.concat(KINDS.stream(), java.util.stream.Stream.of("all")).toList();

  /**
   * {@code GET /api/label-sources}: the mix of label sources in the scope a view shows ({@code
   * label-sources}): per labelled dimension (or only {@code dimension}), the labels of the issues
   * in scope by source (rules, model, llm:&lt;model&gt;, human) and the version that gave them,
   * with their share, how many pass the bar and when they were given. The aggregates' scope by
   * default: bug reports ({@code kind}, {@code all} for every kind) opened in the filters' range (a
   * release is its window); {@code list=true} takes the issue list's: issues {@code FILED_AGAINST}
   * the release, of every kind unless {@code kind} is given.
   */
  void labelSources(Context ctx) {
    ApiParams p = scopedParams(ctx, "dimension", "kind", "list");
    Scope scope = scope(p);
    boolean list = p.bool("list", false);
    Map<String, String> q = list ? new LinkedHashMap<>() : scope.queryParameters();
    if (list) {
      scope.confidenceParameter(q);
      if (scope.framework() != null) {
        q.put("framework", scope.framework());
      }
      if (scope.release() != null) {
        q.put("release", scope.release());
      }
      p.instant("from").ifPresent(v -> put(q, "from", v));
      p.instant("to").ifPresent(v -> put(q, "to", v));
    }
    String kind = p.choice("kind", LABEL_SOURCE_KINDS).orElse(list ? "all" : "BUG");
    if (!kind.equals("all")) {
      q.put("kind", kind);
    }
    p.choice("dimension", DIMENSIONS).ifPresent(v -> q.put("dimension", v));
    Map<String, Object> body = scoped(scope);
    body.put("kind", kind);
    body.put("list", list);
    body.put("dimension", q.get("dimension"));
    body.put("dimensions", Shapes.labelSources(queries.run("label-sources", q)));
    json(ctx, body);
  }

  /**
   * {@code GET /api/changes}: the graph's current change marker (what the event stream compares).
   */
  void changes(Context ctx) {
    params(ctx);
    json(ctx, Map.of("marker", marker()));
  }

  /** The graph's change marker: the {@code graph-change-marker} row as one string. */
  String marker() {
    List<Map<String, Object>> rows = queries.run("graph-change-marker");
    return rows.isEmpty() ? "" : String.valueOf(new ArrayList<>(rows.get(0).values()));
  }

  /** {@code GET /api/*} that is no endpoint. */
  void unknownEndpoint(Context ctx) {
    throw ApiError.notFound(
        "No such API endpoint: "
            + ctx.path()
            + "; endpoints: /api/filters, /api/releases, /api/trends, /api/heatmap, /api/fix-patterns,"
            + " /api/distributed-share,"
            + " /api/headline, /api/alerts, /api/alerts.atom, /api/release-shifts, /api/issues, /api/issue, /api/label-sources, /api/changes, /api/events,"
            + " POST /api/similar");
  }

  /**
   * {@code inScope}, {@code labelled} and {@code coverage} of a query whose rows all carry the same
   * scope-wide figures. Without rows no label passed or the scope is empty: the query is run once
   * more with every label to tell which.
   */
  private Map<String, Object> scopeCoverage(
      String query, Map<String, String> q, List<Map<String, Object>> rows) {
    if (!rows.isEmpty()) {
      return coverage((Number) rows.get(0).get("inScope"), (Number) rows.get(0).get("labelled"));
    }
    Map<String, String> all = new LinkedHashMap<>(q);
    all.put("minConfidence", "all");
    List<Map<String, Object>> everyLabel = queries.run(query, all);
    return coverage(everyLabel.isEmpty() ? null : (Number) everyLabel.get(0).get("inScope"), 0L);
  }

  /**
   * The coverage of {@code stage-symptom-matrix} rows: the issues in scope (on every row) and the
   * labelled ones summed over the cells (each issue's labels are one cell). Without rows the query
   * is run once more with every label counted to tell how many issues are in scope.
   */
  private Map<String, Object> pairCoverage(Map<String, String> q, List<Map<String, Object>> rows) {
    if (!rows.isEmpty()) {
      return coverage((Number) rows.get(0).get("inScope"), sum(rows, "labelled"));
    }
    Map<String, String> all = new LinkedHashMap<>(q);
    all.put("minConfidence", "all");
    List<Map<String, Object>> everyLabel = queries.run("stage-symptom-matrix", all);
    return coverage(everyLabel.isEmpty() ? null : (Number) everyLabel.get(0).get("inScope"), 0L);
  }

  /**
   * The coverage of {@code category-trends} rows: their issues in scope summed over the periods,
   * and the labelled ones of the known codes.
   */
  static Map<String, Object> trendCoverage(List<Map<String, Object>> rows) {
    Map<Object, Long> inScope = new LinkedHashMap<>();
    long labelled = 0;
    for (Map<String, Object> r : rows) {
      inScope.put(r.get("period"), ((Number) r.get("inScope")).longValue());
      String code = String.valueOf(r.get("code"));
      boolean known = !List.of("UNKNOWN", "NONE", "null").contains(code);
      labelled += known ? ((Number) r.get("labelled")).longValue() : 0;
    }
    long total = inScope.values().stream().mapToLong(Long::longValue).sum();
    return coverage(rows.isEmpty() ? null : total, labelled);
  }

  /**
   * The coverage object of a response; {@code coverage} is null when nothing is in scope (or not
   * known).
   */
  static Map<String, Object> coverage(Number inScope, Number labelled) {
    Map<String, Object> m = new LinkedHashMap<>();
    long scoped = inScope == null ? 0 : inScope.longValue();
    long passed = labelled == null ? 0 : labelled.longValue();
    m.put("inScope", inScope == null ? null : scoped);
    m.put("labelled", passed);
    m.put("coverage", scoped == 0 ? null : Math.round(10_000.0 * passed / scoped) / 10_000.0);
    return m;
  }

  private static double sumOf(List<Map<String, Object>> rows, String column) {
    return rows.stream().mapToDouble(r -> ((Number) r.get(column)).doubleValue()).sum();
  }

  private static long sum(List<Map<String, Object>> rows, String column) {
    return rows.stream().mapToLong(r -> ((Number) r.get(column)).longValue()).sum();
  }

  private ApiParams params(Context ctx, String... own) {
    return new ApiParams(ctx.queryParamMap(), Set.of(own));
  }

  private Scope scope(ApiParams p) {
    return Scope.resolve(p, this::releasesOf, queries.defaultConfidence());
  }

  /** The parameters of a scoped endpoint: its own and the filters of {@link Scope}. */
  private ApiParams scopedParams(Context ctx, String... own) {
    Set<String> names = new LinkedHashSet<>(Scope.PARAMETERS);
    names.addAll(List.of(own));
    return new ApiParams(ctx.queryParamMap(), names);
  }

  @SuppressWarnings("unchecked")
  private List<Scope.Release> releasesOf(String framework) {
    List<Scope.Release> out = new ArrayList<>();
    for (Map<String, Object> row :
        queries.run("frameworks-and-releases", Map.of("framework", framework))) {
      for (Map<String, Object> r : (List<Map<String, Object>>) row.get("releases")) {
        Object at = r.get("publishedAt");
        out.add(
            new Scope.Release(
                (String) r.get("id"),
                framework,
                at == null ? null : OffsetDateTime.parse((String) at).toInstant()));
      }
    }
    return out;
  }

  private static Map<String, Object> scoped(Scope scope) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("scope", scope.describe());
    return body;
  }

  private static void put(Map<String, String> q, String name, Instant value) {
    if (value != null) {
      q.put(name, value.toString());
    }
  }

  private void json(Context ctx, Object body) {
    try {
      ctx.contentType("application/json").result(mapper.writeValueAsString(body));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("Cannot serialise a response", e);
    }
  }
}
