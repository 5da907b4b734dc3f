package dev.faultline.classifier.learned;

import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Phase;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Stage;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.Arrays;
import java.util.List;

/**
 * The dimensions the learned layer answers, with the gold field that names each in the batch format and the
 * codes it may answer. Distributed-specific answers {@code true}, {@code false} or {@code null} (cannot tell).
 */
public enum Target {
  KIND("kind", names(Kind.values(), "UNKNOWN"), null),
  SYMPTOM("symptom", names(Symptom.values()), "UNKNOWN"),
  ROOT_CAUSE("root_cause", names(RootCause.values()), "UNKNOWN"),
  FIX_PATTERN("fix_pattern", names(FixPattern.values()), "UNKNOWN"),
  STAGE("stage", names(Stage.values()), "UNKNOWN"),
  PHASE("phase", names(Phase.values()), "UNKNOWN"),
  DISTRIBUTED("distributed_specific", List.of("true", "false", "null"), "null");

  /** Field of the gold record and of {@code classify} output. */
  public final String field;

  /** Every code this dimension may answer. */
  public final List<String> codes;

  /** The answer when the model is not sure enough; null: this dimension always answers. */
  public final String abstain;

  Target(String field, List<String> codes, String abstain) {
    this.field = field;
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
