package dev.faultline.classifier.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tokens of one issue, with the zone of each and an index from token to positions, built once
 * per classification so that every phrase lookup costs a hash probe instead of a scan of the text.
 * Not thread-safe; one per call.
 */
public final class TextIndex {

  private static final int[] NONE = new int[0];

  private final List<String> tokens = new ArrayList<>(512);
  private byte[] zones = new byte[512];
  private final Map<String, int[]> positions = new HashMap<>(1024);
  private final int[] zoneTokenCount = new int[Zone.values().length];
  private String[] sortedDistinct;

  /**
   * Adds the tokens of a text in a zone. Zones are separated so a phrase never spans two of them.
   */
  public void add(Zone zone, String text, Tokenizer tokenizer) {
    if (text == null || text.isEmpty()) {
      return;
    }
    if (!tokens.isEmpty()) {
      push("\u0000", zone); // boundary: matches no phrase token
    }
    tokenizer.tokenize(text, t -> push(t, zone));
    sortedDistinct = null;
  }

  private void push(String token, Zone zone) {
    int at = tokens.size();
    tokens.add(token);
    if (at == zones.length) {
      zones = Arrays.copyOf(zones, zones.length * 2);
    }
    zones[at] = (byte) zone.ordinal();
    zoneTokenCount[zone.ordinal()]++;
    int[] p = positions.get(token);
    if (p == null) {
      p = new int[] {1, at, 0, 0};
      positions.put(token, p);
    } else {
      int size = p[0];
      if (size + 1 == p.length) {
        p = Arrays.copyOf(p, p.length * 2);
        positions.put(token, p);
      }
      p[size + 1] = at;
      p[0] = size + 1;
    }
  }

  /** Number of tokens in a zone. */
  public int tokenCount(Zone zone) {
    return zoneTokenCount[zone.ordinal()];
  }

  public int size() {
    return tokens.size();
  }

  public String token(int i) {
    return tokens.get(i);
  }

  public Zone zone(int i) {
    return Zone.values()[zones[i]];
  }

  /** Positions of a token as {@code [count, p1, p2, ...]} (array may be longer than count + 1). */
  int[] positionsOf(String token) {
    int[] p = positions.get(token);
    return p == null ? NONE : p;
  }

  /** Distinct tokens, sorted, for prefix lookups. */
  String[] sortedDistinct() {
    if (sortedDistinct == null) {
      sortedDistinct = positions.keySet().toArray(new String[0]);
      Arrays.sort(sortedDistinct);
    }
    return sortedDistinct;
  }

  /** Whether the token occurs at all. */
  public boolean contains(String token) {
    return positions.containsKey(token);
  }
}
