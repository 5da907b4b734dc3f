package dev.faultline.jobs.classify;

import dev.faultline.jobs.common.JobArgs;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a killed attempt of a bounded replay ({@code faultline reclassify}) got to: per partition
 * of the deliveries topic, the offset before which every delivery went through the pipeline and
 * into the graph (the replay group's committed offsets, committed with a checkpoint). A resumed
 * attempt reads the topic from its start again; the deliveries below these offsets are
 * <em>folded</em> into their issues' state but not classified or written again (they were), so an
 * issue whose deliveries span the kill is classified on its whole history, as an uninterrupted
 * replay would classify it. Restoring the attempt's own Flink checkpoint instead was tried and left
 * out: the restored job's transactional sink of the classified topic was fenced
 * (docs/classifier.md).
 *
 * <p>Travels as the job flag {@code --replay-resume PARTITION:OFFSET,...}, so a replay on a cluster
 * resumes the same way.
 *
 * @param offsets partition to the first offset not yet handled; empty: a first attempt
 */
public record ReplayResume(Map<Integer, Long> offsets) implements Serializable {

  /** A first attempt: nothing handled yet. */
  public static final ReplayResume NONE = new ReplayResume(Map.of());

  public ReplayResume {
    offsets = Map.copyOf(offsets == null ? Map.of() : new TreeMap<>(offsets));
  }

  /** Whether this is a first attempt. */
  public boolean isNone() {
    return offsets.values().stream().allMatch(o -> o <= 0);
  }

  /**
   * Whether the delivery at {@code offset} of {@code partition} was handled by a killed attempt.
   */
  public boolean handled(int partition, long offset) {
    return offset < offsets.getOrDefault(partition, 0L);
  }

  /** Deliveries handled before the kill, to be folded again. */
  public long handledCount() {
    return offsets.values().stream().mapToLong(o -> Math.max(0, o)).sum();
  }

  /**
   * Where the later of two attempts got to, partition by partition: a resumed attempt commits the
   * offsets of its refolding too, which lie below its own start.
   */
  public ReplayResume max(ReplayResume other) {
    Map<Integer, Long> m = new TreeMap<>(offsets);
    other.offsets.forEach((p, o) -> m.merge(p, o, Math::max));
    return new ReplayResume(m);
  }

  /** The job flags ({@link #fromArgs} reads them back); none for a first attempt. */
  public List<String> toArgs() {
    if (isNone()) {
      return List.of();
    }
    List<String> parts = new ArrayList<>();
    new TreeMap<>(offsets).forEach((p, o) -> parts.add(p + ":" + o));
    return List.of("--replay-resume", String.join(",", parts));
  }

  /**
   * The offsets of {@code --replay-resume}; {@link #NONE} without it.
   *
   * @throws IllegalArgumentException a part that is not {@code PARTITION:OFFSET}
   */
  public static ReplayResume fromArgs(JobArgs args) {
    String value = args.get("replay-resume", "");
    Map<Integer, Long> m = new TreeMap<>();
    for (String part : value.split(",")) {
      if (part.isBlank()) {
        continue;
      }
      String[] po = part.strip().split(":");
      try {
        if (po.length != 2) {
          throw new NumberFormatException(part);
        }
        m.put(Integer.parseInt(po[0]), Long.parseLong(po[1]));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--replay-resume '" + value + "': expected PARTITION:OFFSET,... (e.g. 0:120,1:98)", e);
      }
    }
    return new ReplayResume(m);
  }
}
