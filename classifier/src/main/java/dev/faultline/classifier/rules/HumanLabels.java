package dev.faultline.classifier.rules;

import dev.faultline.classifier.ClassifierConfig;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.Label;
import dev.faultline.schemas.taxonomy.Dimension;
import java.util.EnumMap;
import java.util.Locale;
import java.util.function.Function;

/**
 * People's labels: a GitHub label configured in {@link ClassifierConfig#labelOverrides()} decides
 * its dimension and wins over the rules (marked human-given). The first such label of a dimension
 * counts.
 */
public final class HumanLabels {
  private final EnumMap<Dimension, Label<String>> given;

  private HumanLabels(EnumMap<Dimension, Label<String>> given) {
    this.given = given;
  }

  /** The labels people gave the input. */
  public static HumanLabels of(ClassifierConfig config, IssueText in) {
    EnumMap<Dimension, Label<String>> out = new EnumMap<>(Dimension.class);
    for (String label : in.labels()) {
      ClassifierConfig.LabelOverride o =
          config.labelOverrides().get(label.toLowerCase(Locale.ROOT));
      if (o != null && !out.containsKey(o.dimension())) {
        out.put(o.dimension(), Label.human(o.code(), "GitHub label '" + label + "'"));
      }
    }
    return new HumanLabels(out);
  }

  /** The person's label of the dimension if there is one, else the rules' label. */
  public <T> Label<T> or(Dimension d, Label<T> rules, Function<String, T> parse) {
    Label<String> l = given.get(d);
    if (l == null) {
      return rules;
    }
    return new Label<>(parse.apply(l.value()), l.confidence(), l.evidence(), true);
  }
}
