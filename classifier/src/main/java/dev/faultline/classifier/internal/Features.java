package dev.faultline.classifier.internal;

import java.util.EnumMap;
import java.util.Map;

/**
 * How often each {@link Cue} occurs in each {@link Zone} of one issue, with the first phrase that
 * matched (for evidence). Built by {@link CueMatcher}; immutable after construction.
 */
public final class Features {

  private final int[][] counts; // [cue][zone]
  private final String[] firstPhrase;

  Features(int[][] counts, String[] firstPhrase) {
    this.counts = counts;
    this.firstPhrase = firstPhrase;
  }

  public int count(Cue cue, Zone zone) {
    return counts[cue.ordinal()][zone.ordinal()];
  }

  public int total(Cue cue) {
    int s = 0;
    for (int c : counts[cue.ordinal()]) {
      s += c;
    }
    return s;
  }

  public boolean in(Cue cue, Zone zone) {
    return count(cue, zone) > 0;
  }

  public boolean any(Cue cue) {
    return total(cue) > 0;
  }

  /** Title + opening post (and PR title/body): what the reporter observed. */
  public int reporter(Cue cue) {
    return count(cue, Zone.TITLE)
        + count(cue, Zone.BODY)
        + count(cue, Zone.PR_TITLE)
        + count(cue, Zone.PR_BODY);
  }

  /** A weighted score: title words count most, comments least. */
  public double score(Cue cue) {
    int[] c = counts[cue.ordinal()];
    return 3.0 * Math.min(c[Zone.TITLE.ordinal()], 2)
        + 3.0 * Math.min(c[Zone.PR_TITLE.ordinal()], 2)
        + Math.min(c[Zone.BODY.ordinal()], 4)
        + Math.min(c[Zone.PR_BODY.ordinal()], 4)
        + 0.3 * Math.min(c[Zone.COMMENT.ordinal()], 4)
        + 0.6 * Math.min(c[Zone.MAINTAINER_COMMENT.ordinal()], 4);
  }

  /** The first phrase of the cue that matched, or null. */
  public String phrase(Cue cue) {
    return firstPhrase[cue.ordinal()];
  }

  /** Non-zero cue totals, for debugging output. */
  public Map<Cue, Integer> totals() {
    Map<Cue, Integer> m = new EnumMap<>(Cue.class);
    for (Cue c : Cue.values()) {
      if (total(c) > 0) {
        m.put(c, total(c));
      }
    }
    return m;
  }
}
