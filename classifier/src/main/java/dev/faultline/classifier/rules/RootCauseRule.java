package dev.faultline.classifier.rules;

import dev.faultline.classifier.Label;
import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.Features;
import dev.faultline.classifier.internal.Zone;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.RootCause;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Root cause: only on an explicit diagnosis. Depends on the kind and the symptom. */
public final class RootCauseRule {

  /** Stated causes, most specific first: on a tie the earlier one wins. */
  private static final List<Map.Entry<Cue, RootCause>> CAUSES =
      List.of(
          Map.entry(Cue.CAUSE_COMMUNICATION, RootCause.DISTRIBUTED_COMMUNICATION_ERROR),
          Map.entry(Cue.CAUSE_CONCURRENCY, RootCause.CONCURRENCY_ERROR),
          Map.entry(Cue.CAUSE_DIST_TENSOR, RootCause.DISTRIBUTED_TENSOR_ERROR),
          Map.entry(Cue.CAUSE_EXCEPTION, RootCause.INCORRECT_EXCEPTION_HANDLING),
          Map.entry(Cue.CAUSE_DEPENDENCY, RootCause.DEPENDENT_MODULE_ISSUE),
          Map.entry(Cue.CAUSE_PRECONDITION, RootCause.PRECONDITION_MISSING),
          Map.entry(Cue.CAUSE_ASSIGNMENT, RootCause.INCORRECT_ASSIGNMENT),
          Map.entry(Cue.CAUSE_IMPLEMENTATION, RootCause.INCORRECT_IMPLEMENTATION),
          Map.entry(Cue.CAUSE_API_MISUSE, RootCause.API_MISUSE),
          Map.entry(Cue.CAUSE_CONFIG, RootCause.CONFIGURATION_ERROR));

  /**
   * @param kind the kind, as the rules decided it
   * @param s the symptom after the confidence threshold
   */
  public Label<RootCause> decide(Evidence c, Kind kind, Symptom s) {
    Features f = c.f();
    if (kind != Kind.BUG) {
      return Label.predicted(RootCause.UNKNOWN, 0.9, "no defect");
    }
    for (String label : c.in().labels()) {
      if (label.toLowerCase(Locale.ROOT).contains("upstream")) {
        return Label.predicted(
            RootCause.DEPENDENT_MODULE_ISSUE,
            0.6,
            "GitHub label '" + label + "': bug in a dependency");
      }
    }
    Map.Entry<Cue, RootCause> cause = Stated.mostStated(c, CAUSES);
    if (cause != null) {
      return Label.predicted(
          cause.getValue(), 0.55, "stated cause ('" + f.phrase(cause.getKey()) + "')");
    }
    boolean resolved =
        f.count(Cue.RESOLVED, Zone.COMMENT) + f.count(Cue.RESOLVED, Zone.MAINTAINER_COMMENT) > 0
            || c.mergedFix();
    Zone title = c.pr() ? Zone.PR_TITLE : Zone.TITLE;
    if (f.in(Cue.VERSION_CAUSE, title)) {
      return Label.predicted(
          RootCause.VERSION_INCOMPATIBILITY,
          0.6,
          "title names a version incompatibility ('" + f.phrase(Cue.VERSION_CAUSE) + "')");
    }
    int versionWords = f.total(Cue.VERSION_CAUSE) - f.count(Cue.VERSION_CAUSE, Zone.TITLE);
    if (resolved && versionWords > 0 && f.total(Cue.VERSION_FIX) > 0) {
      return Label.predicted(
          RootCause.VERSION_INCOMPATIBILITY,
          0.55,
          "resolution by a version change ('"
              + f.phrase(Cue.VERSION_FIX)
              + "', '"
              + f.phrase(Cue.VERSION_CAUSE)
              + "')");
    }
    if (s == Symptom.IMPORT_ERROR
        && !c.pr()
        && f.reporter(Cue.API_MOVED) > 0
        && f.count(Cue.VERSION_CAUSE, Zone.COMMENT)
                + f.count(Cue.VERSION_CAUSE, Zone.MAINTAINER_COMMENT)
                + f.count(Cue.INSTALL_ADVICE, Zone.COMMENT)
                + f.count(Cue.INSTALL_ADVICE, Zone.MAINTAINER_COMMENT)
            > 0) {
      return Label.predicted(
          RootCause.VERSION_INCOMPATIBILITY,
          0.5,
          "a name the installed version does not export ('"
              + f.phrase(Cue.API_MOVED)
              + "'), replies point at versions");
    }
    if (f.any(Cue.CAUSE_ENVIRONMENT)) {
      return Label.predicted(
          RootCause.ENVIRONMENT_INCOMPATIBILITY,
          0.5,
          "the error names an unsupported environment ('" + f.phrase(Cue.CAUSE_ENVIRONMENT) + "')");
    }
    return Label.predicted(RootCause.UNKNOWN, 0.8, "no diagnosis stated");
  }
}
