package dev.faultline.classifier.internal;

import java.util.ArrayList;
import java.util.List;

/** Finds every {@link Cue} in a {@link TextIndex}. Immutable and thread-safe once built. */
public final class CueMatcher {

  private final Phrase[][] phrases;

  public CueMatcher(Tokenizer tokenizer) {
    Cue[] cues = Cue.values();
    phrases = new Phrase[cues.length][];
    for (Cue c : cues) {
      List<Phrase> ps = new ArrayList<>();
      for (String p : c.phrases()) {
        ps.add(new Phrase(p, tokenizer));
      }
      phrases[c.ordinal()] = ps.toArray(new Phrase[0]);
    }
  }

  public Features match(TextIndex index) {
    int zones = Zone.values().length;
    int[][] counts = new int[phrases.length][zones];
    String[] first = new String[phrases.length];
    for (int c = 0; c < phrases.length; c++) {
      for (Phrase p : phrases[c]) {
        if (p.count(index, counts[c]) > 0 && first[c] == null) {
          first[c] = p.text();
        }
      }
    }
    return new Features(counts, first);
  }
}
