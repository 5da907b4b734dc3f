package dev.faultline.classifier.rules;

import dev.faultline.classifier.Comment;
import dev.faultline.classifier.IssueText;
import dev.faultline.classifier.Label;
import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.Features;
import dev.faultline.classifier.internal.Zone;
import dev.faultline.schemas.taxonomy.FixPattern;
import dev.faultline.schemas.taxonomy.Kind;
import dev.faultline.schemas.taxonomy.Symptom;
import java.util.List;
import java.util.Map;

/** Fix pattern: only on a visible resolution or fix. Depends on the kind and the symptom. */
public final class FixPatternRule {

  /** Stated fixes, most specific first. */
  private static final List<Map.Entry<Cue, FixPattern>> FIXES =
      List.of(
          Map.entry(Cue.FIX_VERSION_COMPAT, FixPattern.VERSION_COMPATIBILITY_HANDLING),
          Map.entry(Cue.FIX_CONDITION, FixPattern.CONDITIONAL_LOGIC),
          Map.entry(Cue.FIX_PARAMETER, FixPattern.PARAMETER_HANDLING),
          Map.entry(Cue.FIX_REWRITE, FixPattern.LOGIC_REWRITE));

  /**
   * @param kind the kind, as the rules decided it
   * @param symptom the symptom after the confidence threshold
   */
  public Label<FixPattern> decide(Evidence c, Kind kind, Symptom symptom) {
    Features f = c.f();
    if (kind == Kind.OTHER) {
      return Label.predicted(FixPattern.UNKNOWN, 0.8, "no defect");
    }
    int resolvedInThread =
        f.count(Cue.RESOLVED, Zone.COMMENT) + f.count(Cue.RESOLVED, Zone.MAINTAINER_COMMENT);
    int versionFixInThread =
        f.count(Cue.VERSION_FIX, Zone.COMMENT)
            + f.count(Cue.VERSION_FIX, Zone.MAINTAINER_COMMENT)
            + f.count(Cue.VERSION_FIX, Zone.PR_TITLE);
    if (resolvedInThread > 0 && versionFixInThread > 0) {
      return Label.predicted(
          FixPattern.VERSION_DEPENDENCY_MANAGEMENT,
          0.55,
          "thread reports it resolved by '" + f.phrase(Cue.VERSION_FIX) + "'");
    }
    boolean installSymptom =
        symptom == Symptom.BUILD_INSTALL_FAILURE || symptom == Symptom.IMPORT_ERROR;
    if (installSymptom
        && !c.pr()
        && f.count(Cue.INSTALL_ADVICE, Zone.COMMENT)
                + f.count(Cue.INSTALL_ADVICE, Zone.MAINTAINER_COMMENT)
            > 0) {
      return Label.predicted(
          FixPattern.VERSION_DEPENDENCY_MANAGEMENT,
          0.5,
          "a reply to a build/import failure says how to install ('"
              + f.phrase(Cue.INSTALL_ADVICE)
              + "')");
    }
    if (addsConditionInPatch(c.in())) {
      return Label.predicted(
          FixPattern.CONDITIONAL_LOGIC, 0.55, "a patch in the thread adds an if-branch");
    }
    Map.Entry<Cue, FixPattern> fix = Stated.mostStated(c, FIXES);
    if (fix != null) {
      return Label.predicted(fix.getValue(), 0.5, "stated fix ('" + f.phrase(fix.getKey()) + "')");
    }
    return Label.predicted(FixPattern.UNKNOWN, 0.8, "no resolution visible");
  }

  /**
   * A unified diff in the body or a comment whose added lines open an {@code if}. Linear scan, no
   * regex.
   */
  static boolean addsConditionInPatch(IssueText in) {
    if (addsCondition(in.body())) {
      return true;
    }
    for (Comment cm : in.comments()) {
      if (addsCondition(cm.body())) {
        return true;
      }
    }
    return false;
  }

  private static boolean addsCondition(String t) {
    if (t == null || t.indexOf("@@") < 0) {
      return false;
    }
    int i = t.indexOf("\n+");
    while (i >= 0) {
      int j = i + 2;
      while (j < t.length() && (t.charAt(j) == ' ' || t.charAt(j) == '\t')) {
        j++;
      }
      if (j > i + 2 && t.startsWith("if ", j)) {
        return true;
      }
      i = t.indexOf("\n+", i + 2);
    }
    return false;
  }
}
