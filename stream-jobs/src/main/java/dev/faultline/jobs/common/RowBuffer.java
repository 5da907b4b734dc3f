package dev.faultline.jobs.common;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Rows waiting for the next graph transaction, at most one per key: a newer row (by version, ties
 * to the later arrival) replaces an older one, so a batch never writes two states of one issue.
 */
public final class RowBuffer<R> {
  private final Function<R, String> key;
  private final ToLongFunction<R> version;
  private final Map<String, R> rows = new LinkedHashMap<>();

  public RowBuffer(Function<R, String> key, ToLongFunction<R> version) {
    this.key = key;
    this.version = version;
  }

  public void add(R row) {
    rows.merge(
        key.apply(row),
        row,
        (old, now) -> version.applyAsLong(now) >= version.applyAsLong(old) ? now : old);
  }

  public int size() {
    return rows.size();
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** Takes everything out, in first-arrival order. */
  public List<R> drain() {
    List<R> out = new ArrayList<>(rows.values());
    rows.clear();
    return out;
  }
}
