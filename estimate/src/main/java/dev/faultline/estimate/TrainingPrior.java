package dev.faultline.estimate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The mix of codes the learned classifier's probabilities are calibrated under, which {@link
 * PriorShift} corrects from: per dimension, the mean out-of-fold distribution over the training
 * corpus's issues (the learned layer's 5 grouped folds), for one classifier version ({@link
 * #classifierVersion()}; items labelled by another version or tier are not re-weighted). Read from
 * {@link #RESOURCE}, which {@code PriorShiftBenchmark} writes (docs/estimates.md); a test fails
 * when it no longer belongs to the bundled artefact.
 */
public final class TrainingPrior {

  /** The bundled prior. */
  public static final String RESOURCE = "/dev/faultline/estimate/training-prior.properties";

  private static final class Holder {
    static final TrainingPrior BUNDLED = load();
  }

  private final Properties values;

  TrainingPrior(Properties values) {
    this.values = values;
  }

  /** The bundled prior. */
  public static TrainingPrior bundled() {
    return Holder.BUNDLED;
  }

  /** The classifier version whose probabilities this prior belongs to. */
  public String classifierVersion() {
    return values.getProperty("classifierVersion");
  }

  /** The SHA-256 (hex) of the artefact the prior was measured for. */
  public String artefactSha256() {
    return values.getProperty("artefactSha256");
  }

  /**
   * The prior of a dimension over {@code codes} (in that order, renormalised over them), or empty
   * when none is bundled for it.
   *
   * @param dimension the dimension's key as the graph names it, e.g. {@code symptom}, {@code stage}
   */
  public Optional<double[]> of(String dimension, List<String> codes) {
    double[] p = new double[codes.size()];
    double sum = 0;
    for (int k = 0; k < p.length; k++) {
      String v = values.getProperty(dimension + "." + codes.get(k));
      p[k] = v == null ? 0 : Double.parseDouble(v);
      sum += p[k];
    }
    if (sum <= 0) {
      return Optional.empty();
    }
    for (int k = 0; k < p.length; k++) {
      p[k] /= sum;
    }
    return Optional.of(p);
  }

  private static TrainingPrior load() {
    Properties p = new Properties();
    try (InputStream in = TrainingPrior.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is not on the class path");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    return new TrainingPrior(p);
  }
}
