package dev.faultline.classifier.learned;

import dev.faultline.schemas.taxonomy.Dimension;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.Arrays;
import java.util.List;

/**
 * The dimensions the learned layer answers, with the gold field that names each in the batch format
 * and the codes it may answer. Distributed-specific answers {@code true}, {@code false} or {@code
 * null} (cannot tell).
 */
public enum Target {
  KIND(Dimension.KIND, names(Kind.values(), "UNKNOWN"), null),
  SYMPTOM(Dimension.SYMPTOM, names(Symptom.values()), "UNKNOWN"),
  ROOT_CAUSE(Dimension.ROOT_CAUSE, names(RootCause.values()), "UNKNOWN"),
  FIX_PATTERN(Dimension.FIX_PATTERN, names(FixPattern.values()), "UNKNOWN"),
  STAGE(Dimension.STAGE, names(Stage.values()), "UNKNOWN"),
  PHASE(Dimension.PHASE, names(Phase.values()), "UNKNOWN"),
  DISTRIBUTED(Dimension.DISTRIBUTED_SPECIFIC, List.of("true", "false", "null"), "null");

  /** The dimension this target answers. */
  public final Dimension dimension;

  /**
   * Field of the gold record and of {@code classify} output: the dimension's {@link
   * Dimension#field()}.
   */
  public final String field;

  /** Every code this dimension may answer. */
  public final List<String> codes;

  /** The answer when the model is not sure enough; null: this dimension always answers. */
  public final String abstain;

  Target(Dimension dimension, List<String> codes, String abstain) {
    this.dimension = dimension;
    this.field = dimension.field();
    this.codes = codes;
    this.abstain = abstain;
  }

  private static List<String> names(Enum<?>[] values, String... except) {
    return Arrays.stream(values).map(Enum::name).filter(n -> !List.of(except).contains(n)).toList();
  }

  /** The dimension of a gold field name. */
  public static Target ofField(String field) {
    for (Target t : values()) {
      if (t.field.equals(field)) {
        return t;
      }
    }
    throw new IllegalArgumentException("no learned dimension named " + field);
  }
}
