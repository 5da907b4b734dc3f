package dev.faultline.estimate.group;

import dev.faultline.schemas.taxonomy.Dimension;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The classifier's calibration error on a scope, beyond the per-item uncertainty: a scope's count
 * of a code is taken as Σ p_i + (per-item Bernoulli noise) + δ·W, with W the expected number of
 * items of the family (e.g. of the kind) resting on a classifier and δ ~ N(0, τ²) a per-item bias
 * of the probabilities shared by the whole scope (calibration error, a mix that differs from the
 * training data's). τ is per dimension and code, measured out of fold on the training corpus by
 * {@code ModelErrorBenchmark} (docs/estimates.md) and shipped as {@value #RESOURCE}; a code without
 * its own figure takes its dimension's default.
 *
 * <p>The share of a code among the known codes takes the error of the code (τ_c) and of the rest of
 * the known codes (the dimension's {@value #KNOWN} figure) as independent.
 */
public final class ModelError {
  /** The shipped table. */
  public static final String RESOURCE = "/dev/faultline/estimate/model-error.properties";

  /** The key of the error of a dimension's known codes together. */
  public static final String KNOWN = "*known";

  /** The key of a dimension's default. */
  public static final String DEFAULT = "*";

  /** No model error: the per-item uncertainty only. */
  public static final ModelError NONE = new ModelError(Map.of(), "none");

  private final Map<String, Double> tau;
  private final String source;

  /**
   * A table.
   *
   * @param tau {@code <dimension key>.<code>} (or {@link #KNOWN}, {@link #DEFAULT}) to τ
   * @param source where it was measured, for the rows' method
   */
  public ModelError(Map<String, Double> tau, String source) {
    this.tau = Map.copyOf(tau);
    this.source = source;
  }

  /** The shipped table ({@link #RESOURCE}). */
  public static ModelError shipped() {
    return Shipped.TABLE;
  }

  private static final class Shipped {
    static final ModelError TABLE = load();
  }

  private static ModelError load() {
    Properties p = new Properties();
    try (InputStream in = ModelError.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    Map<String, Double> tau = new TreeMap<>();
    String source = "model error";
    for (String key : p.stringPropertyNames()) {
      if (key.equals("source")) {
        source = p.getProperty(key);
      } else {
        tau.put(key, Double.parseDouble(p.getProperty(key)));
      }
    }
    return new ModelError(tau, source);
  }

  /** Whether the table holds any error (false: the per-item uncertainty only). */
  public boolean any() {
    return !tau.isEmpty();
  }

  /** Where the figures were measured. */
  public String source() {
    return source;
  }

  /** τ of a code of a dimension (its dimension's default when the table has none for it). */
  public double tau(Dimension d, String code) {
    Double t = tau.get(d.key() + "." + code);
    if (t == null) {
      t = tau.get(d.key() + "." + DEFAULT);
    }
    return t == null ? 0 : t;
  }

  /** τ of the dimension's known codes together. */
  public double tauKnown(Dimension d) {
    return tau(d, KNOWN);
  }
}
