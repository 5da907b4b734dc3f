package dev.faultline.graph.testing;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import dev.faultline.schemas.taxonomy.SymptomClass;
import java.util.LinkedHashMap;
import java.util.Map;

/** The codes of a test row ({@code IssueRow.ClassificationRow#codes}), one argument a dimension. */
public final class Codes {
  private Codes() {}

  public static Map<Dimension, Object> of(
      Kind kind,
      Symptom symptom,
      SymptomClass symptomClass,
      RootCause rootCause,
      FixPattern fixPattern,
      Stage stage,
      Phase phase,
      Boolean distributedSpecific) {
    Map<Dimension, Object> m = new LinkedHashMap<>();
    m.put(Dimension.KIND, kind);
    m.put(Dimension.SYMPTOM, symptom);
    m.put(Dimension.SYMPTOM_CLASS, symptomClass);
    m.put(Dimension.ROOT_CAUSE, rootCause);
    m.put(Dimension.FIX_PATTERN, fixPattern);
    m.put(Dimension.STAGE, stage);
    m.put(Dimension.PHASE, phase);
    m.put(Dimension.DISTRIBUTED_SPECIFIC, distributedSpecific);
    return m;
  }
}
