package dev.faultline.classifier.learned;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Turns {@link RawFeatures} into {@link SparseVector}s over a vocabulary chosen from training items
 * only: the text vector standardised per dimension, the named features seen at least twice, and the
 * most frequent words of title, text and diff (document frequency at least 3). Immutable; its
 * fields are what the model artefact stores.
 */
public final class Vectorizer {

  static final int MIN_DF = 3;
  static final int MAX_TITLE = 1500;
  static final int MAX_BODY = 4000;
  static final int MAX_DIFF = 1500;

  final float[] mean;
  final float[] std;
  final List<String> fixed;
  final List<String> title;
  final List<String> body;
  final float[] bodyIdf;
  final List<String> added;
  final List<String> removed;
  final List<String> tokens;

  private final Map<String, Integer> fixedIndex;
  private final Map<String, Integer> titleIndex;
  private final Map<String, Integer> bodyIndex;
  private final Map<String, Integer> addedIndex;
  private final Map<String, Integer> removedIndex;
  private final Map<String, Integer> tokenIndex;
  private final int dims;
  private final int bodyOffset;

  Vectorizer(
      float[] mean,
      float[] std,
      List<String> fixed,
      List<String> title,
      List<String> body,
      float[] bodyIdf,
      List<String> added,
      List<String> removed,
      List<String> tokens) {
    this.mean = mean;
    this.std = std;
    this.fixed = List.copyOf(fixed);
    this.title = List.copyOf(title);
    this.body = List.copyOf(body);
    this.bodyIdf = bodyIdf;
    this.added = List.copyOf(added);
    this.removed = List.copyOf(removed);
    this.tokens = List.copyOf(tokens);
    int at = mean.length;
    fixedIndex = index(this.fixed, at);
    at += this.fixed.size();
    titleIndex = index(this.title, at);
    at += this.title.size();
    bodyIndex = index(this.body, at);
    bodyOffset = at;
    at += this.body.size();
    addedIndex = index(this.added, at);
    at += this.added.size();
    removedIndex = index(this.removed, at);
    at += this.removed.size();
    tokenIndex = index(this.tokens, at);
    at += this.tokens.size();
    dims = at;
  }

  private static Map<String, Integer> index(List<String> names, int offset) {
    Map<String, Integer> m = new HashMap<>(names.size() * 2);
    for (int i = 0; i < names.size(); i++) {
      m.put(names.get(i), offset + i);
    }
    return m;
  }

  /**
   * Chooses the vocabulary from training items.
   *
   * @param keepFixed which named features to keep (e.g. all, or none of the rules' for an ablation)
   */
  public static Vectorizer fit(Collection<RawFeatures> items, Predicate<String> keepFixed) {
    int d = items.iterator().next().embedding().length;
    double[] sum = new double[d];
    double[] sq = new double[d];
    Map<String, Integer> fixedDf = new TreeMap<>();
    Map<String, Integer> titleDf = new HashMap<>();
    Map<String, Integer> bodyDf = new HashMap<>();
    Map<String, Integer> addedDf = new HashMap<>();
    Map<String, Integer> removedDf = new HashMap<>();
    Map<String, Integer> tokenDf = new TreeMap<>();
    for (RawFeatures r : items) {
      for (int j = 0; j < d; j++) {
        sum[j] += r.embedding()[j];
        sq[j] += (double) r.embedding()[j] * r.embedding()[j];
      }
      r.fixed().keySet().forEach(k -> fixedDf.merge(k, 1, Integer::sum));
      r.titleWords().keySet().forEach(k -> titleDf.merge(k, 1, Integer::sum));
      r.bodyWords().keySet().forEach(k -> bodyDf.merge(k, 1, Integer::sum));
      r.diffAdded().keySet().forEach(k -> addedDf.merge(k, 1, Integer::sum));
      r.diffRemoved().keySet().forEach(k -> removedDf.merge(k, 1, Integer::sum));
      r.tokens().forEach(k -> tokenDf.merge(k, 1, Integer::sum));
    }
    int n = items.size();
    float[] mean = new float[d];
    float[] std = new float[d];
    for (int j = 0; j < d; j++) {
      double m = sum[j] / n;
      mean[j] = (float) m;
      std[j] = (float) Math.max(1e-6, Math.sqrt(Math.max(0, sq[j] / n - m * m)));
    }
    List<String> fixed = new ArrayList<>();
    fixedDf.forEach(
        (k, v) -> {
          if (v >= 2 && keepFixed.test(k)) {
            fixed.add(k);
          }
        });
    List<String> tokens = new ArrayList<>();
    tokenDf.forEach(
        (k, v) -> {
          if (v >= 2) {
            tokens.add(k);
          }
        });
    List<String> body = top(bodyDf, MAX_BODY);
    float[] idf = new float[body.size()];
    for (int i = 0; i < body.size(); i++) {
      idf[i] = (float) Math.log((1.0 + n) / (1.0 + bodyDf.get(body.get(i))));
    }
    return new Vectorizer(
        mean,
        std,
        fixed,
        top(titleDf, MAX_TITLE),
        body,
        idf,
        top(addedDf, MAX_DIFF),
        top(removedDf, MAX_DIFF),
        tokens);
  }

  /**
   * The words seen in at least {@link #MIN_DF} items, most frequent first, at most {@code max},
   * then sorted.
   */
  private static List<String> top(Map<String, Integer> df, int max) {
    return df.entrySet().stream()
        .filter(e -> e.getValue() >= MIN_DF)
        .sorted(
            Map.Entry.<String, Integer>comparingByValue()
                .reversed()
                .thenComparing(Map.Entry.comparingByKey()))
        .limit(max)
        .map(Map.Entry::getKey)
        .sorted()
        .toList();
  }

  /** Number of features. */
  public int dimension() {
    return dims;
  }

  /**
   * The sparse vector of an item. Groups occupy ascending index ranges, so each is sorted on its
   * own.
   */
  public SparseVector vectorize(RawFeatures r) {
    int cap =
        mean.length
            + r.fixed().size()
            + r.titleWords().size()
            + r.bodyWords().size()
            + r.diffAdded().size()
            + r.diffRemoved().size()
            + r.tokens().size();
    int[] idx = new int[cap];
    double[] val = new double[cap];
    int n = 0;
    float[] e = r.embedding();
    for (int j = 0; j < mean.length; j++) {
      idx[n] = j;
      val[n++] = (double) ((e[j] - mean[j]) / std[j]) / 4.0;
    }
    Group g = new Group(idx, val, n);
    r.fixed()
        .forEach(
            (k, x) -> {
              Integer i = fixedIndex.get(k);
              if (i != null && x != 0) {
                g.add(i, x);
              }
            });
    g.close(false);
    r.titleWords()
        .keySet()
        .forEach(
            k -> {
              Integer i = titleIndex.get(k);
              if (i != null) {
                g.add(i, 1.0);
              }
            });
    g.close(false);
    r.bodyWords()
        .forEach(
            (k, c) -> {
              Integer i = bodyIndex.get(k);
              if (i != null) {
                g.add(i, Math.log1p(c) * bodyIdf[i - bodyOffset]);
              }
            });
    g.close(true);
    r.diffAdded()
        .forEach(
            (k, c) -> {
              Integer i = addedIndex.get(k);
              if (i != null) {
                g.add(i, Math.log1p(c));
              }
            });
    g.close(true);
    r.diffRemoved()
        .forEach(
            (k, c) -> {
              Integer i = removedIndex.get(k);
              if (i != null) {
                g.add(i, Math.log1p(c));
              }
            });
    g.close(true);
    r.tokens()
        .forEach(
            k -> {
              Integer i = tokenIndex.get(k);
              if (i != null) {
                g.add(i, 1.0);
              }
            });
    g.close(false);
    return new SparseVector(java.util.Arrays.copyOf(idx, g.n), java.util.Arrays.copyOf(val, g.n));
  }

  /** Appends one feature group at a time, sorted by index and optionally scaled to unit length. */
  private static final class Group {
    final int[] idx;
    final double[] val;
    int n;
    int start;

    Group(int[] idx, double[] val, int n) {
      this.idx = idx;
      this.val = val;
      this.n = n;
      this.start = n;
    }

    void add(int i, double x) {
      idx[n] = i;
      val[n++] = x;
    }

    void close(boolean normalise) {
      int len = n - start;
      if (len > 1) {
        long[] packed = new long[len];
        for (int k = 0; k < len; k++) {
          packed[k] = ((long) idx[start + k] << 32) | k;
        }
        java.util.Arrays.sort(packed);
        int[] i2 = new int[len];
        double[] v2 = new double[len];
        for (int k = 0; k < len; k++) {
          int from = (int) (packed[k] & 0xffffffffL);
          i2[k] = idx[start + from];
          v2[k] = val[start + from];
        }
        System.arraycopy(i2, 0, idx, start, len);
        System.arraycopy(v2, 0, val, start, len);
      }
      if (normalise && len > 0) {
        double sq = 0;
        for (int k = start; k < n; k++) {
          sq += val[k] * val[k];
        }
        double norm = Math.sqrt(sq);
        for (int k = start; k < n; k++) {
          val[k] /= norm;
        }
      }
      start = n;
    }
  }

  /** A readable name of a feature index; every text-vector dimension is "text meaning". */
  public String name(int i) {
    if (i < mean.length) {
      return "text meaning";
    }
    int at = mean.length;
    if (i < at + fixed.size()) {
      return fixed.get(i - at);
    }
    at += fixed.size();
    if (i < at + title.size()) {
      return "title word " + title.get(i - at);
    }
    at += title.size();
    if (i < at + body.size()) {
      return "word " + body.get(i - at);
    }
    at += body.size();
    if (i < at + added.size()) {
      return "added code " + added.get(i - at);
    }
    at += added.size();
    if (i < at + removed.size()) {
      return "removed code " + removed.get(i - at);
    }
    at += removed.size();
    if (i < at + tokens.size()) {
      return tokens.get(i - at);
    }
    return "feature " + i;
  }

  /** For tests: the named features kept. */
  List<String> fixedNames() {
    return fixed;
  }

  @Override
  public String toString() {
    return "Vectorizer["
        + dims
        + " features: "
        + mean.length
        + " text, "
        + fixed.size()
        + " named, "
        + title.size()
        + " title, "
        + body.size()
        + " words, "
        + added.size()
        + "+"
        + removed.size()
        + " diff, "
        + tokens.size()
        + " labels/paths]";
  }
}
