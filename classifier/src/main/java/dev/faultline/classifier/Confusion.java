package dev.faultline.classifier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * How often a point answer of one dimension is right: the misclassification-matrix view of
 * "adjusted classify and count" (Forman, "Quantifying counts and costs via classification", Data
 * Min. Knowl. Disc. 2008; Buonaccorsi, "Measurement Error", 2010, ch. 2). For a labelled set, the
 * counts n[k][c] of items whose answer fell in row k and whose true code is c; an answer's
 * distribution is the row M[k][c] = P(true = c | row k), each row smoothed by a Dirichlet prior so
 * that no cell is 0 or 1 from a handful of items:
 *
 * <pre>
 *   M[k][c] = (n[k][c] + strength * parent(k)[c]) / (n[k] + strength)
 * </pre>
 *
 * A row key is a list: its first part is the answered code, further parts refine it (the rules add
 * the kind of item and a band of their confidence). The parent of a key is the row of its key
 * without the last part; the parent of a one-part key {@code [a]} is the stated prior {@code
 * base(a)}. So a refined row seen rarely shrinks toward its answer's row, which shrinks toward the
 * prior. A key never seen takes the row of its longest seen prefix.
 *
 * <p>Immutable; holds counts only (no text).
 */
public final class Confusion {

  /** One labelled item: the key of the row its answer falls in, and its true code. */
  public record Observation(List<String> key, String truth) {
    public Observation {
      key = List.copyOf(key);
      Objects.requireNonNull(truth, "truth");
    }
  }

  private final Dimension dimension;
  private final List<String> codes;
  private final Map<List<String>, double[]> counts;
  private final Map<List<String>, double[]> prefixes;
  private final double strength;
  private final Function<String, Map<String, Double>> base;

  private Confusion(
      Dimension dimension,
      Map<List<String>, double[]> counts,
      double strength,
      Function<String, Map<String, Double>> base) {
    if (!(strength > 0)) {
      throw new IllegalArgumentException("the prior's strength must be positive, was " + strength);
    }
    this.dimension = dimension;
    this.codes = dimension.distributionCodes();
    this.counts = Collections.unmodifiableMap(counts);
    this.strength = strength;
    this.base = Objects.requireNonNull(base, "base");
    Map<List<String>, double[]> p = new LinkedHashMap<>();
    counts.forEach(
        (key, n) -> {
          for (int i = 1; i <= key.size(); i++) {
            double[] sum = p.computeIfAbsent(key.subList(0, i), k -> new double[codes.size()]);
            for (int c = 0; c < n.length; c++) {
              sum[c] += n[c];
            }
          }
        });
    this.prefixes = p;
  }

  /**
   * Counts the observations of a dimension.
   *
   * @param strength the prior's pseudo-counts per row
   * @param base the prior row of an answered code (the first part of a key)
   * @throws IllegalArgumentException a true code that is not one of the dimension's
   */
  public static Confusion fit(
      Dimension d,
      List<Observation> observations,
      double strength,
      Function<String, Map<String, Double>> base) {
    List<String> codes = d.distributionCodes();
    Map<List<String>, double[]> counts = new TreeMap<>(KEY_ORDER);
    for (Observation o : observations) {
      int c = codes.indexOf(o.truth());
      if (c < 0) {
        throw new IllegalArgumentException("'" + o.truth() + "' is not a " + d.key() + " code");
      }
      if (o.key().isEmpty()) {
        throw new IllegalArgumentException("an observation needs the answered code as its key");
      }
      counts.computeIfAbsent(o.key(), k -> new double[codes.size()])[c]++;
    }
    return new Confusion(d, new LinkedHashMap<>(counts), strength, base);
  }

  private static final Comparator<List<String>> KEY_ORDER =
      (a, b) -> String.join("\u0000", a).compareTo(String.join("\u0000", b));

  /** The dimension. */
  public Dimension dimension() {
    return dimension;
  }

  /** The prior's pseudo-counts per row. */
  public double strength() {
    return strength;
  }

  /**
   * The distribution of an answer whose row key is {@code key}: every code of the dimension, in
   * order, summing to 1.
   */
  public Map<String, Double> row(List<String> key) {
    if (key.isEmpty()) {
      throw new IllegalArgumentException("a row key starts with the answered code");
    }
    Map<String, Double> prior = base.apply(key.get(0));
    double[] p = new double[codes.size()];
    for (int c = 0; c < p.length; c++) {
      p[c] = prior.getOrDefault(codes.get(c), 0.0);
    }
    for (int i = 1; i <= key.size(); i++) {
      double[] n = prefixes.get(key.subList(0, i));
      if (n == null) {
        break;
      }
      double total = 0;
      for (double x : n) {
        total += x;
      }
      for (int c = 0; c < p.length; c++) {
        p[c] = (n[c] + strength * p[c]) / (total + strength);
      }
    }
    Map<String, Double> out = new LinkedHashMap<>();
    for (int c = 0; c < p.length; c++) {
      out.put(codes.get(c), p[c]);
    }
    return out;
  }

  /** The distribution of a one-part key: the answered code's row. */
  public Map<String, Double> row(String answered) {
    return row(List.of(answered));
  }

  /**
   * Items counted in the rows whose key starts with {@code prefix} (all items for an empty one).
   */
  public int items(List<String> prefix) {
    int n = 0;
    for (Map.Entry<List<String>, double[]> e : counts.entrySet()) {
      if (e.getKey().size() >= prefix.size()
          && e.getKey().subList(0, prefix.size()).equals(prefix)) {
        for (double x : e.getValue()) {
          n += (int) x;
        }
      }
    }
    return n;
  }

  /** Items whose answered code (the first part of their key) is their true code. */
  public int agreeing() {
    int n = 0;
    for (Map.Entry<List<String>, double[]> e : counts.entrySet()) {
      int c = codes.indexOf(e.getKey().get(0));
      if (c >= 0) {
        n += (int) e.getValue()[c];
      }
    }
    return n;
  }

  /** The answered codes seen, in the dimension's order. */
  public List<String> answered() {
    List<String> out = new ArrayList<>();
    for (String c : codes) {
      if (prefixes.containsKey(List.of(c))) {
        out.add(c);
      }
    }
    return out;
  }

  /** The counts as JSON: {@code [{"key": [...], "n": {"CODE": count, ...}}, ...]}. */
  public ArrayNode toJson(ObjectMapper json) {
    ArrayNode rows = json.createArrayNode();
    counts.forEach(
        (key, n) -> {
          ObjectNode r = rows.addObject();
          ArrayNode k = r.putArray("key");
          key.forEach(k::add);
          ObjectNode cells = r.putObject("n");
          for (int c = 0; c < n.length; c++) {
            if (n[c] > 0) {
              cells.put(codes.get(c), (long) n[c]);
            }
          }
        });
    return rows;
  }

  /**
   * The confusion whose counts {@link #toJson} wrote.
   *
   * @throws IllegalArgumentException a code the dimension does not have, a negative or fractional
   *     count, a row without a key
   */
  public static Confusion fromJson(
      Dimension d, JsonNode rows, double strength, Function<String, Map<String, Double>> base) {
    List<String> codes = d.distributionCodes();
    Map<List<String>, double[]> counts = new LinkedHashMap<>();
    for (JsonNode r : rows) {
      List<String> key = new ArrayList<>();
      r.path("key").forEach(k -> key.add(k.asText()));
      if (key.isEmpty() || !codes.contains(key.get(0))) {
        throw new IllegalArgumentException(
            d.key() + ": a row's key must start with one of its codes, was " + key);
      }
      double[] n = new double[codes.size()];
      for (var it = r.path("n").fields(); it.hasNext(); ) {
        var cell = it.next();
        int c = codes.indexOf(cell.getKey());
        long v = cell.getValue().asLong(-1);
        if (c < 0 || v < 0 || !cell.getValue().canConvertToLong() || cell.getValue().isDouble()) {
          throw new IllegalArgumentException(
              d.key() + " row " + key + ": bad cell " + cell.getKey() + "=" + cell.getValue());
        }
        n[c] = v;
      }
      counts.put(List.copyOf(key), n);
    }
    return new Confusion(d, counts, strength, base);
  }
}
