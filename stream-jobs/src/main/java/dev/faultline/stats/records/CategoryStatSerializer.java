package dev.faultline.stats.records;

import dev.faultline.schemas.taxonomy.Dimension;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of {@link CategoryStat}, the rolling and release counts' output to the sinks
 * (network and chained copies only, in no state). Fields in a fixed order, a byte of null flags for
 * the boxed ones, strings in one bulk write each, the few-valued ones (framework, category, window,
 * release) read as shared instances; Flink's POJO serializer it replaced reached every field by
 * reflection and wrote strings character by character.
 */
public final class CategoryStatSerializer extends NetworkRecordSerializer<CategoryStat> {
  private static final long serialVersionUID = 1L;

  public static final CategoryStatSerializer INSTANCE = new CategoryStatSerializer();

  private static final Dimension[] DIMENSIONS = Dimension.values();

  private static final int HAS_START = 1;
  private static final int HAS_END = 2;
  private static final int HAS_EXPECTED = 4;
  private static final int HAS_VARIANCE = 8;

  @Override
  public CategoryStat createInstance() {
    return new CategoryStat();
  }

  @Override
  public CategoryStat copy(CategoryStat from) {
    CategoryStat s = new CategoryStat();
    s.id = from.id;
    s.framework = from.framework;
    s.dimension = from.dimension;
    s.category = from.category;
    s.window = from.window;
    s.windowStart = from.windowStart;
    s.windowEnd = from.windowEnd;
    s.release = from.release;
    s.count = from.count;
    s.expected = from.expected;
    s.variance = from.variance;
    return s;
  }

  @Override
  public void serialize(CategoryStat s, DataOutputView target) throws IOException {
    RecordStrings.write(s.id, target);
    RecordStrings.write(s.framework, target);
    target.writeByte(s.dimension == null ? -1 : s.dimension.ordinal());
    RecordStrings.write(s.category, target);
    RecordStrings.write(s.window, target);
    RecordStrings.write(s.release, target);
    target.writeLong(s.count);
    int present =
        (s.windowStart == null ? 0 : HAS_START)
            | (s.windowEnd == null ? 0 : HAS_END)
            | (s.expected == null ? 0 : HAS_EXPECTED)
            | (s.variance == null ? 0 : HAS_VARIANCE);
    target.writeByte(present);
    if (s.windowStart != null) {
      target.writeLong(s.windowStart);
    }
    if (s.windowEnd != null) {
      target.writeLong(s.windowEnd);
    }
    if (s.expected != null) {
      target.writeDouble(s.expected);
    }
    if (s.variance != null) {
      target.writeDouble(s.variance);
    }
  }

  @Override
  public CategoryStat deserialize(DataInputView source) throws IOException {
    CategoryStat s = new CategoryStat();
    s.id = RecordStrings.read(source);
    s.framework = RecordStrings.readShared(source);
    byte dimension = source.readByte();
    s.dimension = dimension < 0 ? null : DIMENSIONS[dimension];
    s.category = RecordStrings.readShared(source);
    s.window = RecordStrings.readShared(source);
    s.release = RecordStrings.readShared(source);
    s.count = source.readLong();
    int present = source.readByte();
    s.windowStart = (present & HAS_START) == 0 ? null : source.readLong();
    s.windowEnd = (present & HAS_END) == 0 ? null : source.readLong();
    s.expected = (present & HAS_EXPECTED) == 0 ? null : source.readDouble();
    s.variance = (present & HAS_VARIANCE) == 0 ? null : source.readDouble();
    return s;
  }

  @Override
  public TypeSerializerSnapshot<CategoryStat> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's snapshot. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<CategoryStat> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }

  /** Makes {@code TypeInformation.of(CategoryStat.class)} name this serializer. */
  public static final class Factory extends TypeInfoFactory<CategoryStat> {
    @Override
    public TypeInformation<CategoryStat> createTypeInfo(
        Type t, Map<String, TypeInformation<?>> genericParameters) {
      return new SerializerTypeInfo<>(CategoryStat.class, INSTANCE);
    }
  }
}
