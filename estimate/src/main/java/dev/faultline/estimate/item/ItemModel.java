package dev.faultline.estimate.item;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.Taxonomy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one reading of a statement row into an {@link Item}, used by every estimate: the kind's
 * distribution and, per dimension, the distribution of its code given the kind, each with what it
 * rests on ({@link Calibration}).
 *
 * <p>Columns of the row: {@code kind, kindP, kindCalibration, kindPasses} (the kind's code, stored
 * distribution over {@link Dimension#KIND}'s codes, marker, and whether it passes its bar); {@code
 * humanGiven} (the dimensions a person labelled); per {@link Field} its four columns; for a scope a
 * validation sample serves, {@code sample} (the sample's labels of the item, a map, or null),
 * {@code sampleDrawn} and {@code samplePopulation}; optionally {@code id}. A missing column reads
 * as null.
 *
 * <p>How a stored distribution becomes one given the kind:
 *
 * <ul>
 *   <li>A bug-only dimension ({@link #bugOnly}) stores P(bug and code). Where it has a NONE code
 *       holding the rest (1 - P(bug): the symptom), P(code | bug) is its mass over the other codes
 *       renormalised. Where it has none (root cause, fix pattern, distributed-specific, written
 *       before the tiers conditioned them), the other kinds' mass sits in its "cannot tell" code:
 *       P(code | bug) = P(bug and code) / P(bug) for the known codes, with P(bug) the stored kind
 *       distribution's (the one the classifier wrote them with), the rest "cannot tell". A field
 *       whose distribution comes from another node than the kind's (a merged change's own fix
 *       pattern beside the kind of the bug report it fixes) names that node's kind distribution
 *       ({@link Field#kindP}): its P(bug) is the one divided by.
 *   <li>Stage and phase: as stored, for every kind.
 *   <li>The symptom class: the symptom's distribution summed by class (the taxonomy), so the two
 *       never disagree.
 *   <li>No distribution, or a point mass without a marker, or a {@code prior:} marker: 1 - epsilon
 *       on the code, epsilon spread evenly over the dimension's other codes ({@link
 *       Calibration#DEFAULT_PRIOR_ERROR} without a marker), uncalibrated.
 *   <li>A person's label ({@code humanGiven} or the marker {@code human}): a point mass on its
 *       code, and it conditions the others: a person's kind sets the kind; a person's known code of
 *       a bug-only dimension makes the kind BUG, a person's NONE makes it not BUG (unless a person
 *       also gave the kind). The other dimensions' distributions given BUG are unchanged by this,
 *       so a person's BUG gives P(bug) = 1 whether or not the stored rows were conditioned on it.
 * </ul>
 */
public final class ItemModel {

  /** The kind's codes, in the order of its distributions. */
  public static final List<String> KIND_CODES = Dimension.KIND.distributionCodes();

  private static final Field KIND = Field.named(Dimension.KIND);
  private static final Set<Dimension> ALL_KINDS =
      Set.of(Dimension.KIND, Dimension.STAGE, Dimension.PHASE);
  private static final Set<String> NOT_KNOWN = Set.of("UNKNOWN", "NONE", "null");
  private static final int[] SYMPTOM_TO_CLASS = symptomToClass();

  private final List<Field> fields;

  private ItemModel(List<Field> fields) {
    this.fields = List.copyOf(fields);
  }

  /** A model reading these fields (besides the kind). */
  public static ItemModel of(Collection<Field> fields) {
    return new ItemModel(new ArrayList<>(fields));
  }

  /** A model reading these fields (besides the kind). */
  public static ItemModel of(Field... fields) {
    return new ItemModel(List.of(fields));
  }

  /** The fields, in order. */
  public List<Field> fields() {
    return fields;
  }

  /** The columns a statement row must have for this model (sample and id columns aside). */
  public List<String> inputs() {
    List<String> in = new ArrayList<>(KIND.columns());
    in.add("humanGiven");
    fields.forEach(f -> in.addAll(f.columns()));
    return in;
  }

  /**
   * Whether the codebook gives a dimension to bug reports only (NONE, UNKNOWN or null for every
   * other kind): every dimension but kind, stage and phase.
   */
  public static boolean bugOnly(Dimension d) {
    return !ALL_KINDS.contains(d);
  }

  /** Every row as an item. */
  public List<Item> items(List<Map<String, Object>> rows) {
    List<Item> out = new ArrayList<>(rows.size());
    for (Map<String, Object> row : rows) {
      out.add(item(row));
    }
    return out;
  }

  /** One row as an item. */
  public Item item(Map<String, Object> row) {
    Set<String> human = humanGiven(row.get("humanGiven"));
    Read kind = read(row, KIND, human.contains("kind"));
    double piStored = kind.stored == null ? Double.NaN : kind.stored[KIND_CODES.indexOf("BUG")];
    int n = fields.size();
    double[][] given = new double[n][];
    Calibration[] calibration = new Calibration[n];
    String[] top = new String[n];
    boolean[] passes = new boolean[n];
    double[] kindP = kind.given;
    Calibration kindCalibration = kind.calibration;
    for (int f = 0; f < n; f++) {
      Field field = fields.get(f);
      Dimension d = field.dimension();
      Read r = read(row, field, human.contains(d.labelDimension().key()));
      given[f] = r.given;
      if (bugOnly(d) && !r.calibration.human() && r.stored != null) {
        given[f] = givenBug(d, r.stored, ownBug(row, field, piStored));
      }
      calibration[f] = r.calibration;
      top[f] = r.top;
      passes[f] = Boolean.TRUE.equals(row.get(field.passes()));
      if (bugOnly(d) && r.calibration.human() && !kindCalibration.human()) {
        // a person's code of a bug-only dimension says whether the item is a bug report
        boolean bug = !NOT_KNOWN.contains(r.top);
        boolean notBug = "NONE".equals(r.top);
        if (bug || notBug) {
          kindP = bug ? pointMass(KIND_CODES, "BUG") : withoutBug(kindP);
          kindCalibration = new Calibration(Calibration.Basis.HUMAN, 0, "implied by " + d.key());
        }
      }
    }
    return new Item(
        row.get("id") == null ? null : String.valueOf(row.get("id")),
        kindP,
        kindCalibration,
        kind.top,
        Boolean.TRUE.equals(row.get(KIND.passes())),
        fields,
        given,
        calibration,
        top,
        passes,
        sampleLabels(row.get("sample")),
        Boolean.TRUE.equals(row.get("sampleDrawn")),
        !Boolean.FALSE.equals(row.get("samplePopulation")));
  }

  /**
   * P(bug) of the kind distribution a field's distribution was written with: the field's own kind
   * column ({@link Field#kindP}) where the row has one, else the item's ({@code piStored}).
   */
  private static double ownBug(Map<String, Object> row, Field field, double piStored) {
    if (field.kindP() == null) {
      return piStored;
    }
    double[] own = stored(Dimension.KIND, row.get(field.kindP()));
    return own == null ? piStored : own[KIND_CODES.indexOf("BUG")];
  }

  /** One label as read: its code, stored distribution (null for none), given one, calibration. */
  private record Read(String top, double[] stored, double[] given, Calibration calibration) {}

  private static Read read(Map<String, Object> row, Field field, boolean humanGiven) {
    Dimension d = field.dimension();
    List<String> codes = d.distributionCodes();
    String top = topCode(d, row.get(field.top()));
    double[] stored = stored(d, row.get(field.p()));
    boolean pointMass = stored == null || max(stored) >= Calibration.POINT_MASS;
    Object marker = row.get(field.calibration());
    Calibration c =
        Calibration.of(marker == null ? null : String.valueOf(marker), humanGiven, pointMass);
    if (stored == null && !c.human() && c.basis() != Calibration.Basis.PRIOR) {
      // a marker without the distribution it describes: no distribution
      c = Calibration.of(null, false, true);
    }
    double[] given;
    if (c.human()) {
      given = pointMass(codes, top);
      stored = null;
    } else if (pointMass && c.basis() == Calibration.Basis.PRIOR) {
      String on = stored == null ? top : codes.get(argmax(stored));
      given = spread(d, on, c.epsilon());
      stored = null;
    } else {
      given = stored;
    }
    return new Read(top, stored, given, c);
  }

  /** The stored code as a distribution code; an unclassified item's is "cannot tell". */
  private static String topCode(Dimension d, Object value) {
    List<String> codes = d.distributionCodes();
    String code = value == null ? null : String.valueOf(value);
    if (code == null || !codes.contains(code)) {
      return codes.contains("UNKNOWN") ? "UNKNOWN" : "null";
    }
    return code;
  }

  /**
   * The stored distribution over the dimension's codes, renormalised (stored rounded), or null for
   * none. The symptom class may come as the symptom's distribution, summed by class.
   */
  static double[] stored(Dimension d, Object list) {
    if (!(list instanceof List<?> values) || values.isEmpty()) {
      return null;
    }
    int size = d.distributionCodes().size();
    double[] p = new double[values.size()];
    double sum = 0;
    for (int k = 0; k < p.length; k++) {
      Object v = values.get(k);
      p[k] = v instanceof Number number ? Math.max(0, number.doubleValue()) : 0;
      sum += p[k];
    }
    if (sum <= 0) {
      return null;
    }
    if (d == Dimension.SYMPTOM_CLASS && p.length == SYMPTOM_TO_CLASS.length) {
      double[] byClass = new double[size];
      for (int k = 0; k < p.length; k++) {
        byClass[SYMPTOM_TO_CLASS[k]] += p[k];
      }
      p = byClass;
    } else if (p.length != size) {
      return null; // a list of another shape: no distribution
    }
    for (int k = 0; k < p.length; k++) {
      p[k] /= sum;
    }
    return p;
  }

  /** P(code | bug) from a bug-only dimension's stored P(bug and code). */
  static double[] givenBug(Dimension d, double[] stored, double piStored) {
    List<String> codes = d.distributionCodes();
    int none = codes.indexOf("NONE");
    double[] out = new double[stored.length];
    int cannotTell = codes.contains("UNKNOWN") ? codes.indexOf("UNKNOWN") : codes.indexOf("null");
    if (none >= 0 && stored[none] > 0) {
      double rest = 1 - stored[none];
      if (rest <= 1e-9) {
        out[cannotTell] = 1;
        return out;
      }
      for (int k = 0; k < out.length; k++) {
        out[k] = k == none ? 0 : stored[k] / rest;
      }
      return out;
    }
    double pi = Double.isNaN(piStored) ? 1 : piStored;
    if (pi <= 1e-6) {
      out[cannotTell] = 1;
      return out;
    }
    double known = 0;
    for (int k = 0; k < out.length; k++) {
      if (!NOT_KNOWN.contains(codes.get(k))) {
        out[k] = stored[k] / pi;
        known += out[k];
      }
    }
    if (known > 1) {
      for (int k = 0; k < out.length; k++) {
        out[k] /= known;
      }
      known = 1;
    }
    out[cannotTell] += 1 - known;
    return out;
  }

  /**
   * 1 - epsilon on {@code code}, epsilon evenly over the dimension's other codes (for a bug-only
   * dimension, its other codes given a bug: NONE left out).
   */
  static double[] spread(Dimension d, String code, double epsilon) {
    List<String> codes = d.distributionCodes();
    double[] out = new double[codes.size()];
    int on = codes.indexOf(code);
    int others = 0;
    for (int k = 0; k < out.length; k++) {
      if (k != on && !(bugOnly(d) && codes.get(k).equals("NONE"))) {
        others++;
      }
    }
    for (int k = 0; k < out.length; k++) {
      if (k == on) {
        out[k] = 1 - epsilon;
      } else if (!(bugOnly(d) && codes.get(k).equals("NONE"))) {
        out[k] = epsilon / others;
      }
    }
    return out;
  }

  private static double[] pointMass(List<String> codes, String code) {
    double[] out = new double[codes.size()];
    out[codes.indexOf(code)] = 1;
    return out;
  }

  private static double[] withoutBug(double[] kind) {
    double[] out = kind.clone();
    int bug = KIND_CODES.indexOf("BUG");
    double rest = 1 - out[bug];
    out[bug] = 0;
    if (rest <= 1e-9) {
      out[KIND_CODES.indexOf("UNKNOWN")] = 1;
      return out;
    }
    for (int k = 0; k < out.length; k++) {
      out[k] /= rest;
    }
    return out;
  }

  private static Set<String> humanGiven(Object value) {
    if (!(value instanceof List<?> list)) {
      return Set.of();
    }
    Set<String> out = new java.util.HashSet<>();
    list.forEach(v -> out.add(String.valueOf(v)));
    return out;
  }

  private static Map<String, String> sampleLabels(Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    map.forEach(
        (k, v) -> {
          if (v != null && Dimension.ofKey(String.valueOf(k)).isPresent()) {
            out.put(String.valueOf(k), String.valueOf(v));
          }
        });
    return out;
  }

  private static double max(double[] p) {
    double m = 0;
    for (double v : p) {
      m = Math.max(m, v);
    }
    return m;
  }

  private static int argmax(double[] p) {
    int best = 0;
    for (int k = 1; k < p.length; k++) {
      if (p[k] > p[best]) {
        best = k;
      }
    }
    return best;
  }

  private static int[] symptomToClass() {
    Taxonomy taxonomy = Taxonomy.load();
    List<String> symptoms = Dimension.SYMPTOM.distributionCodes();
    List<String> classes = Dimension.SYMPTOM_CLASS.distributionCodes();
    int[] out = new int[symptoms.size()];
    for (int k = 0; k < out.length; k++) {
      String s = symptoms.get(k);
      String c = NOT_KNOWN.contains(s) ? s : taxonomy.symptomClassOf(s).orElse("UNKNOWN");
      out[k] = classes.contains(c) ? classes.indexOf(c) : classes.indexOf("UNKNOWN");
    }
    return out;
  }
}
