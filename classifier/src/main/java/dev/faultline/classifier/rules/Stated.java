package dev.faultline.classifier.rules;

import dev.faultline.classifier.internal.Cue;
import dev.faultline.classifier.internal.Features;
import dev.faultline.classifier.internal.Zone;
import java.util.List;
import java.util.Map;

/**
 * Where the codebook accepts a diagnosis or a fix as stated: shared by {@link RootCauseRule} and
 * {@link FixPatternRule}.
 */
final class Stated {
  private Stated() {}

  /**
   * The table entry whose cue is stated most often (the first on ties, so the table's order is its
   * priority).
   */
  static <T> Map.Entry<Cue, T> mostStated(Evidence c, List<Map.Entry<Cue, T>> table) {
    Map.Entry<Cue, T> best = null;
    int bestN = 0;
    for (Map.Entry<Cue, T> entry : table) {
      int n = stated(c, entry.getKey());
      if (n > bestN) {
        bestN = n;
        best = entry;
      }
    }
    return best;
  }

  /**
   * How often a cue occurs where the codebook accepts a diagnosis or a fix: a pull request's own
   * title and description, maintainers' comments, other comments of a thread that states a
   * diagnosis or a resolution, and the reporter's post when it carries an explicit code-level
   * diagnosis.
   */
  static int stated(Evidence c, Cue cue) {
    Features f = c.f();
    int n =
        f.count(cue, Zone.PR_TITLE)
            + f.count(cue, Zone.PR_BODY)
            + f.count(cue, Zone.MAINTAINER_COMMENT);
    if (f.in(Cue.DIAGNOSIS, Zone.COMMENT)
        || f.in(Cue.RESOLVED, Zone.COMMENT)
        || f.in(Cue.DIAGNOSIS, Zone.MAINTAINER_COMMENT)
        || f.in(Cue.RESOLVED, Zone.MAINTAINER_COMMENT)) {
      n += f.count(cue, Zone.COMMENT);
    }
    if (f.in(Cue.DIAGNOSIS, Zone.BODY)) {
      n += f.count(cue, Zone.BODY) + f.count(cue, Zone.TITLE);
    }
    return n;
  }
}
