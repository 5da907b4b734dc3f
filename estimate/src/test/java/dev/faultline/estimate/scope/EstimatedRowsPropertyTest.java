package dev.faultline.estimate.scope;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.faultline.graph.query.QueryDefinition;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A property of every estimated query: over random scopes (1 to 60 issues, one to four periods)
 * mixing tiers (calibrated distributions, point answers with and without a prior marker, missing
 * distributions, a person's labels of some dimensions, validation-sample labels with items left
 * unlabelled and items outside the sample's population), no row has its estimate outside its
 * interval or its share outside the share's interval, a missing share says why, and a share that
 * rests on a classifier never has a zero-width interval.
 */
class EstimatedRowsPropertyTest {
  private static final List<String> QUERIES =
      List.of(
          "category-shares",
          "category-trends",
          "category-pairs",
          "headline-summary",
          "headline-top-categories",
          "new-bugs-per-release",
          "open-bugs-by-age",
          "distributed-specific-share",
          "stage-symptom-matrix",
          "top-root-causes-per-stage",
          "fix-pattern-per-symptom",
          "fix-size-by-category",
          "fix-effort-by-category",
          "symptom-cause-fix-paths");

  /** The dimensions a query fixes (its counted one, its pair's), else null: the scope's. */
  private static final Map<String, List<Dimension>> FIXED =
      Map.of(
          "headline-summary", List.of(Dimension.KIND, Dimension.KIND),
          "new-bugs-per-release", List.of(Dimension.KIND, Dimension.KIND),
          "open-bugs-by-age", List.of(Dimension.KIND, Dimension.KIND),
          "distributed-specific-share",
              List.of(Dimension.DISTRIBUTED_SPECIFIC, Dimension.DISTRIBUTED_SPECIFIC),
          "stage-symptom-matrix", List.of(Dimension.STAGE, Dimension.SYMPTOM),
          "top-root-causes-per-stage", List.of(Dimension.STAGE, Dimension.ROOT_CAUSE),
          "fix-pattern-per-symptom", List.of(Dimension.SYMPTOM, Dimension.FIX_PATTERN),
          "symptom-cause-fix-paths", List.of(Dimension.SYMPTOM, Dimension.ROOT_CAUSE));

  private static final List<Dimension> DIMENSIONS =
      List.of(
          Dimension.SYMPTOM,
          Dimension.SYMPTOM_CLASS,
          Dimension.STAGE,
          Dimension.ROOT_CAUSE,
          Dimension.PHASE,
          Dimension.DISTRIBUTED_SPECIFIC,
          Dimension.KIND);

  private final Grouped grouped = new Grouped();
  private final StudyFigures figures = new StudyFigures();

  @Test
  void noRowOfAnyEstimatedQueryHasItsEstimateOutsideItsInterval() {
    SplittableRandom r = new SplittableRandom(20261129L);
    int checked = 0;
    for (int scope = 0; scope < 300; scope++) {
      int n = 1 + r.nextInt(60);
      boolean anyHuman = r.nextInt(3) == 0;
      boolean sampled = r.nextInt(3) == 0;
      Dimension d = DIMENSIONS.get(r.nextInt(DIMENSIONS.size()));
      Dimension d2 = DIMENSIONS.get(r.nextInt(DIMENSIONS.size() - 1));
      String kind = r.nextInt(4) == 0 ? null : "BUG";
      List<Map<String, Object>> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        rows.add(row(r, d, d2, anyHuman, sampled));
      }
      for (String name : QUERIES) {
        QueryDefinition q = Rows.query(name);
        List<Dimension> fixed = FIXED.get(name);
        List<Map<String, Object>> items = rows;
        if (fixed != null) {
          items = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            items.add(row(r, fixed.get(0), fixed.get(1), anyHuman, sampled));
          }
        }
        Map<String, Object> p = new HashMap<>();
        p.put("dimension", d.key());
        p.put("rows", d.key());
        p.put("columns", d2.key());
        p.put("kind", kind);
        p.put("mode", "estimate");
        p.put("includeUnknown", true);
        p.put("limit", 1L + r.nextInt(5));
        p.put("minIssues", 0.05);
        for (Map<String, Object> out : grouped.estimate(q, items, p)) {
          check(out, name + " " + d + "/" + d2 + " kind " + kind, !anyHuman);
          checked++;
        }
      }
      for (Map<String, Object> f : figures.estimate(Rows.query("study-figures"), rows, Map.of())) {
        Object e = f.get("estimate");
        if (e != null) {
          double v = (Double) e;
          assertTrue((Double) f.get("low") <= v && v <= (Double) f.get("high"), f.toString());
        } else if (f.get("ranking") == null && f.get("published") != null) {
          assertTrue(f.get("note") != null, f.toString());
        }
        checked++;
      }
    }
    assertTrue(checked > 10_000, "rows checked: " + checked);
  }

  private static void check(Map<String, Object> out, String what, boolean classifierOnly) {
    double e = (Double) out.get("estimate");
    assertTrue(
        (Double) out.get("estimateLow") <= e && e <= (Double) out.get("estimateHigh"),
        what + ": " + out);
    for (String column : out.keySet()) {
      if (column.endsWith("Estimate")) {
        // a subset's estimate (open bugs, small fixes, closed reports, ...)
        String subset = column.substring(0, column.length() - "Estimate".length());
        double o = (Double) out.get(column);
        assertTrue(
            (Double) out.get(subset + "Low") <= o && o <= (Double) out.get(subset + "High"),
            what + ": " + out);
      }
    }
    Object share = out.get("share");
    String code = String.valueOf(out.containsKey("code2") ? out.get("code2") : out.get("code"));
    boolean known = !List.of("UNKNOWN", "NONE", "null").contains(code);
    if (share == null) {
      assertTrue(!known || out.get("note") != null, what + ": no share and no note: " + out);
      return;
    }
    double s = (Double) share;
    double lo = (Double) out.get("shareLow");
    double hi = (Double) out.get("shareHigh");
    assertTrue(lo <= s && s <= hi, what + ": " + out);
    if (classifierOnly) {
      assertTrue(hi > lo, what + ": a zero-width share interval: " + out);
    }
  }

  /** A random statement row carrying every column any of the queries reads. */
  private static Map<String, Object> row(
      SplittableRandom r, Dimension d, Dimension d2, boolean anyHuman, boolean sampled) {
    Map<String, Object> m = new HashMap<>();
    // one row in 15 only names its group (a release or age bucket without issues)
    m.put("id", r.nextInt(15) == 0 ? null : "o/r#" + r.nextInt(1_000_000));
    m.put("period", "2024-0" + (1 + r.nextInt(4)) + "-01");
    String framework = r.nextBoolean() ? "deepspeed" : "megatron-lm";
    boolean overall = r.nextBoolean();
    m.put("scope", overall ? "overall" : "framework");
    m.put("framework", overall ? null : framework);
    String version = "0." + r.nextInt(3) + ".0";
    m.put("release", framework + "@" + version);
    m.put("version", version);
    m.put("tag", "v" + version);
    m.put("publishedAt", "2024-0" + (1 + r.nextInt(3)) + "-01T00:00:00Z");
    m.put("prerelease", false);
    int bucket = r.nextInt(5);
    m.put("bucket", "bucket " + bucket);
    m.put("fromDays", (long) bucket * 7);
    m.put("toDays", bucket == 4 ? null : (long) (bucket + 1) * 7);
    m.put("open", r.nextBoolean());
    // the fix queries' columns: a change's source, size and fix; a report's closing and fixes
    m.put("fromIssue", r.nextBoolean());
    long lines = r.nextInt(60);
    m.put("lines", lines);
    m.put("small", lines <= 10);
    m.put("files", (long) 1 + r.nextInt(5));
    boolean closed = r.nextBoolean();
    m.put("closed", closed);
    m.put("days", closed ? r.nextDouble() * 90 : null);
    m.put("fixed", r.nextBoolean());
    m.put("smallFix", r.nextInt(3) == 0);
    // a fix pattern written with another node's kind distribution (the change's own)
    Map<String, Object> own = new HashMap<>();
    label(own, r, Dimension.KIND, "k", "kp", "kc", false, new ArrayList<>());
    m.put("p2Kind", own.get("kp"));
    List<String> human = new ArrayList<>();
    label(m, r, Dimension.KIND, "kind", "kindP", "kindCalibration", anyHuman, human);
    label(m, r, d, "top", "p", "calibration", anyHuman, human);
    label(m, r, d2, "top2", "p2", "calibration2", anyHuman, human);
    for (Dimension x :
        List.of(
            Dimension.SYMPTOM,
            Dimension.ROOT_CAUSE,
            Dimension.FIX_PATTERN,
            Dimension.PHASE,
            Dimension.DISTRIBUTED_SPECIFIC)) {
      label(m, r, x, x.key(), x.key() + "P", x.key() + "Calibration", anyHuman, human);
    }
    // a triple's third dimension (symptom-cause-fix-paths)
    label(m, r, Dimension.FIX_PATTERN, "top3", "p3", "calibration3", anyHuman, human);
    m.put("passes3", r.nextBoolean());
    m.put("symptomClass", "UNKNOWN");
    m.put("humanGiven", human);
    m.put("passes", r.nextBoolean());
    m.put("passes2", r.nextBoolean());
    m.put("kindPasses", r.nextBoolean());
    m.put("fixLines", r.nextInt(3) == 0 ? (long) r.nextInt(40) : null);
    m.put("longOpen", r.nextInt(10) == 0);
    if (sampled) {
      m.put("samplePopulation", r.nextInt(5) != 0);
      boolean drawn = r.nextInt(3) == 0;
      m.put("sampleDrawn", drawn);
      if (drawn && r.nextInt(6) != 0) {
        Map<String, Object> labels = new HashMap<>();
        labels.put("kind", r.nextInt(4) == 0 ? "QUESTION" : "BUG");
        for (Dimension x : List.of(d, d2)) {
          if (r.nextInt(8) != 0) {
            List<String> codes = x.distributionCodes();
            labels.put(x.key(), codes.get(r.nextInt(codes.size())));
          }
        }
        m.put("sample", labels);
      }
    }
    return m;
  }

  private static void label(
      Map<String, Object> m,
      SplittableRandom r,
      Dimension d,
      String top,
      String p,
      String calibration,
      boolean anyHuman,
      List<String> human) {
    List<String> codes = d.distributionCodes();
    String code = codes.get(r.nextInt(codes.size()));
    m.put(top, code);
    switch (r.nextInt(5)) {
      case 0 -> {
        // a calibrated distribution
        List<Double> q = new ArrayList<>();
        double s = 0;
        for (int k = 0; k < codes.size(); k++) {
          double v = r.nextDouble() < 0.4 ? 0 : r.nextDouble();
          q.add(v);
          s += v;
        }
        if (s == 0) {
          q.set(0, 1.0);
        }
        m.put(p, q);
        m.put(calibration, "cv:test");
      }
      case 1 -> {
        // a point answer with a stated prior error
        List<Double> q = new ArrayList<>();
        codes.forEach(c -> q.add(c.equals(code) ? 1.0 : 0.0));
        m.put(p, q);
        m.put(calibration, "prior:0." + (1 + r.nextInt(3)));
      }
      case 2 -> {
        // a point mass stored before markers existed
        List<Double> q = new ArrayList<>();
        codes.forEach(c -> q.add(c.equals(code) ? 1.0 : 0.0));
        m.put(p, q);
      }
      case 3 -> {
        // a person's label
        if (anyHuman) {
          human.add(d.labelDimension().key());
        }
      }
      default -> {
        // no distribution at all
      }
    }
  }
}
