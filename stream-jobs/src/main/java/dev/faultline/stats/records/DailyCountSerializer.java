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
 * Flink serializer of {@link DailyCount}, the daily counts' output to the rolling counter (network
 * only, in no state). Fields in a fixed order, strings in one bulk write each ({@code
 * RecordStrings}), the framework and category read as shared instances; Flink's POJO serializer it
 * replaced reached every field by reflection and wrote strings character by character.
 */
public final class DailyCountSerializer extends NetworkRecordSerializer<DailyCount> {
  private static final long serialVersionUID = 1L;

  public static final DailyCountSerializer INSTANCE = new DailyCountSerializer();

  private static final Dimension[] DIMENSIONS = Dimension.values();

  @Override
  public DailyCount createInstance() {
    return new DailyCount();
  }

  @Override
  public DailyCount copy(DailyCount from) {
    DailyCount c = new DailyCount();
    c.framework = from.framework;
    c.dimension = from.dimension;
    c.category = from.category;
    c.day = from.day;
    c.count = from.count;
    c.expected = from.expected;
    c.variance = from.variance;
    c.examples = from.examples == null ? null : from.examples.clone();
    return c;
  }

  @Override
  public void serialize(DailyCount d, DataOutputView target) throws IOException {
    RecordStrings.write(d.framework, target);
    target.writeByte(d.dimension == null ? -1 : d.dimension.ordinal());
    RecordStrings.write(d.category, target);
    target.writeLong(d.day);
    target.writeLong(d.count);
    target.writeDouble(d.expected);
    target.writeDouble(d.variance);
    target.writeInt(d.examples == null ? -1 : d.examples.length);
    if (d.examples != null) {
      for (String e : d.examples) {
        RecordStrings.write(e, target);
      }
    }
  }

  @Override
  public DailyCount deserialize(DataInputView source) throws IOException {
    DailyCount d = new DailyCount();
    d.framework = RecordStrings.readShared(source);
    byte dimension = source.readByte();
    d.dimension = dimension < 0 ? null : DIMENSIONS[dimension];
    d.category = RecordStrings.readShared(source);
    d.day = source.readLong();
    d.count = source.readLong();
    d.expected = source.readDouble();
    d.variance = source.readDouble();
    int n = source.readInt();
    if (n >= 0) {
      d.examples = new String[n];
      for (int i = 0; i < n; i++) {
        d.examples[i] = RecordStrings.read(source);
      }
    }
    return d;
  }

  @Override
  public TypeSerializerSnapshot<DailyCount> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's snapshot. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<DailyCount> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }

  /** Makes {@code TypeInformation.of(DailyCount.class)} name this serializer. */
  public static final class Factory extends TypeInfoFactory<DailyCount> {
    @Override
    public TypeInformation<DailyCount> createTypeInfo(
        Type t, Map<String, TypeInformation<?>> genericParameters) {
      return new SerializerTypeInfo<>(DailyCount.class, INSTANCE);
    }
  }
}
