package dev.faultline.classifier;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The classifier's answer for one issue: one label per {@link Dimension}, keyed by it, the
 * framework, the versions found, and which classifier produced it. Mappers iterate {@link
 * Dimension#values()} over {@link #label(Dimension)}; the typed views ({@link #kind()}, …) are for
 * code that reads one dimension's value.
 *
 * @param labels every dimension's label, in {@link Dimension} order; a distributed-specific value
 *     null means the text cannot tell (and for items that report no defect)
 * @param versions component (lower-case) to version as written, in order of first mention
 */
public record Classification(
    Map<Dimension, Label<?>> labels,
    Label<String> framework,
    Map<String, String> versions,
    Provenance provenance) {

  public Classification {
    Objects.requireNonNull(provenance, "provenance");
    Map<Dimension, Label<?>> ordered = new LinkedHashMap<>();
    for (Dimension d : Dimension.values()) {
      Label<?> l = labels.get(d);
      if (l == null) {
        throw new IllegalArgumentException("no " + d.key() + " label in " + labels.keySet());
      }
      if (l.value() != null && !d.accepts(l.value())) {
        throw new IllegalArgumentException(
            "the " + d.key() + " label's value " + l.value() + " is not one of its codes");
      }
      ordered.put(d, l);
    }
    // A plain map in the field (Flink's Kryo fallback rebuilds it by put), read-only through the
    // accessor.
    labels = ordered;
    versions = Collections.unmodifiableMap(new LinkedHashMap<>(versions));
  }

  /** Every dimension's label, in {@link Dimension} order (read-only). */
  @Override
  public Map<Dimension, Label<?>> labels() {
    return Collections.unmodifiableMap(labels);
  }

  /** The label of one dimension. */
  public Label<?> label(Dimension d) {
    return labels.get(d);
  }

  /**
   * The version string of the topic and the batch format ({@link Provenance#classifierVersion}).
   */
  public String classifierVersion() {
    return provenance.classifierVersion();
  }

  /** A copy with every label replaced by {@code f} of it (human-given labels included). */
  public Classification mapLabels(java.util.function.BiFunction<Dimension, Label<?>, Label<?>> f) {
    Map<Dimension, Label<?>> m = new LinkedHashMap<>();
    labels.forEach((d, l) -> m.put(d, f.apply(d, l)));
    return new Classification(m, framework, versions, provenance);
  }

  /** A copy with one label replaced. */
  public Classification with(Dimension d, UnaryOperator<Label<?>> f) {
    return mapLabels((dimension, l) -> dimension == d ? f.apply(l) : l);
  }

  /**
   * This classification with the dimensions only a bug report has conditioned on people's labels
   * ({@link HumanConditioning}): what every tier returns.
   */
  public Classification conditionedOnPeople() {
    return HumanConditioning.apply(this);
  }

  /** A copy made by another classifier. */
  public Classification withProvenance(Provenance p) {
    return new Classification(labels, framework, versions, p);
  }

  @SuppressWarnings("unchecked")
  private <T> Label<T> typed(Dimension d) {
    return (Label<T>) labels.get(d);
  }

  public Label<Kind> kind() {
    return typed(Dimension.KIND);
  }

  public Label<Symptom> symptom() {
    return typed(Dimension.SYMPTOM);
  }

  public Label<SymptomClass> symptomClass() {
    return typed(Dimension.SYMPTOM_CLASS);
  }

  public Label<RootCause> rootCause() {
    return typed(Dimension.ROOT_CAUSE);
  }

  public Label<FixPattern> fixPattern() {
    return typed(Dimension.FIX_PATTERN);
  }

  public Label<Stage> stage() {
    return typed(Dimension.STAGE);
  }
}
