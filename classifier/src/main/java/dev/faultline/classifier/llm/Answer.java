package dev.faultline.classifier.llm;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A validated answer of the language model: one code per {@link Dimension#LABELLED} dimension (the
 * symptom class follows from the symptom), keyed by dimension, and the versions the text states.
 *
 * @param codes dimension to its code; a null distributed-specific value means the text cannot tell
 * @param versions component (lower-case) to version as written (no leading "v"), only versions the
 *     text states; null when the answer has no versions field (an answer of an earlier prompt)
 */
public record Answer(Map<Dimension, Object> codes, Map<String, String> versions) {

  /** An answer without versions (an answer of an earlier prompt). */
  public Answer(Map<Dimension, Object> codes) {
    this(codes, null);
  }

  public Answer {
    Map<Dimension, Object> m = new LinkedHashMap<>();
    for (Dimension d : Dimension.LABELLED) {
      if (!codes.containsKey(d)) {
        throw new IllegalArgumentException("no " + d.key() + " in the answer");
      }
      Object v = codes.get(d);
      if (v == null ? d.coded() : !d.accepts(v)) {
        throw new IllegalArgumentException("bad " + d.key() + " in the answer: " + v);
      }
      m.put(d, v);
    }
    codes = Collections.unmodifiableMap(m);
    versions = versions == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(versions));
  }

  /** The code of one labelled dimension (null: distributed-specific cannot tell). */
  public Object code(Dimension d) {
    return codes.get(d);
  }

  /** The symptom answered. */
  public dev.faultline.schemas.taxonomy.Symptom symptom() {
    return (dev.faultline.schemas.taxonomy.Symptom) codes.get(Dimension.SYMPTOM);
  }
}
