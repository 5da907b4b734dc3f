package dev.faultline.stats.records;

import dev.faultline.schemas.taxonomy.Dimension;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * The key of the counting operators: one category of one dimension of one framework, and for the
 * release counts one release. A Flink POJO (public fields, no-argument constructor) so the key
 * serialises with Flink's POJO serializer; {@link #hashCode()} hashes the dimension by name, not by
 * the enum's identity hash, so the key's hash (which picks its key group) is the same in every JVM.
 */
public class StatKey {
  /** The type information the job keys by. */
  public static final TypeInformation<StatKey> TYPE = TypeInformation.of(StatKey.class);

  public String framework;

  /** The release of a release count, else null. */
  public String release;

  public Dimension dimension;
  public String category;

  public StatKey() {}

  private StatKey(String framework, String release, Dimension dimension, String category) {
    this.framework = framework;
    this.release = release;
    this.dimension = dimension;
    this.category = category;
  }

  /** The key of a rolling count. */
  public static StatKey of(String framework, Dimension dimension, String category) {
    return new StatKey(framework, null, dimension, category);
  }

  /** The key of a release count. */
  public static StatKey ofRelease(
      String framework, String release, Dimension dimension, String category) {
    return new StatKey(framework, release, dimension, category);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StatKey k
        && Objects.equals(framework, k.framework)
        && Objects.equals(release, k.release)
        && dimension == k.dimension
        && Objects.equals(category, k.category);
  }

  /**
   * {@code Objects.hash(framework, release, dimension name, category)}, the value every earlier
   * build gave (a key's key group comes from it, so restored state depends on it), computed without
   * the varargs array: the keyed stages hash a key at every record, state access and timer.
   */
  @Override
  public int hashCode() {
    int h = 31 + Objects.hashCode(framework);
    h = 31 * h + Objects.hashCode(release);
    h = 31 * h + (dimension == null ? 0 : dimension.name().hashCode());
    return 31 * h + Objects.hashCode(category);
  }

  @Override
  public String toString() {
    return framework + (release == null ? "" : "@" + release) + "|" + dimension + "|" + category;
  }
}
