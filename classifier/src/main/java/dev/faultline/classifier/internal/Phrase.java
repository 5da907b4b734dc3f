package dev.faultline.classifier.internal;

import java.util.Arrays;

/**
 * A sequence of tokens to find in a {@link TextIndex}; a token ending in {@code *} matches any
 * token with that prefix. Immutable.
 */
public final class Phrase {

  private final String text;
  private final String[] parts;
  private final boolean[] prefix;

  public Phrase(String text, Tokenizer tokenizer) {
    this.text = text;
    String[] raw = text.trim().split("\\s+");
    java.util.List<String> p = new java.util.ArrayList<>();
    java.util.List<Boolean> pre = new java.util.ArrayList<>();
    for (String r : raw) {
      boolean star = r.endsWith("*");
      String body = star ? r.substring(0, r.length() - 1) : r;
      java.util.List<String> toks = new java.util.ArrayList<>();
      tokenizer.tokenize(body, toks::add);
      for (int i = 0; i < toks.size(); i++) {
        p.add(toks.get(i));
        pre.add(star && i == toks.size() - 1);
      }
    }
    if (p.isEmpty()) {
      throw new IllegalArgumentException("phrase '" + text + "' has no tokens");
    }
    this.parts = p.toArray(new String[0]);
    this.prefix = new boolean[parts.length];
    for (int i = 0; i < parts.length; i++) {
      prefix[i] = pre.get(i);
    }
  }

  public String text() {
    return text;
  }

  /** Adds, per zone, how often this phrase occurs to {@code perZone}; returns the total. */
  int count(TextIndex index, int[] perZone) {
    int total = 0;
    if (!prefix[0]) {
      int[] pos = index.positionsOf(parts[0]);
      for (int k = 1; k <= (pos.length == 0 ? 0 : pos[0]); k++) {
        total += matchAt(index, pos[k], perZone);
      }
    } else {
      String[] sorted = index.sortedDistinct();
      int i = Arrays.binarySearch(sorted, parts[0]);
      if (i < 0) {
        i = -i - 1;
      }
      for (; i < sorted.length && sorted[i].startsWith(parts[0]); i++) {
        int[] pos = index.positionsOf(sorted[i]);
        for (int k = 1; k <= pos[0]; k++) {
          total += matchAt(index, pos[k], perZone);
        }
      }
    }
    return total;
  }

  private int matchAt(TextIndex index, int start, int[] perZone) {
    if (start + parts.length > index.size()) {
      return 0;
    }
    for (int j = 1; j < parts.length; j++) {
      String t = index.token(start + j);
      if (prefix[j] ? !t.startsWith(parts[j]) : !t.equals(parts[j])) {
        return 0;
      }
    }
    perZone[index.zone(start).ordinal()]++;
    return 1;
  }

  @Override
  public String toString() {
    return text;
  }
}
