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
 * Flink serializer of {@link ContributionDelta}, the record every keyed stage of the statistics job
 * receives over the network (the daily counts, the correction path) and copies between chained
 * operators. Fields in a fixed order, strings in one bulk write each ({@code RecordStrings});
 * Flink's POJO serializer it replaced reached every field by reflection and wrote strings character
 * by character. Not in any state: only the network format changed.
 */
public final class ContributionDeltaSerializer extends NetworkRecordSerializer<ContributionDelta> {
  private static final long serialVersionUID = 1L;

  public static final ContributionDeltaSerializer INSTANCE = new ContributionDeltaSerializer();

  private static final Dimension[] DIMENSIONS = Dimension.values();

  @Override
  public ContributionDelta createInstance() {
    return new ContributionDelta();
  }

  @Override
  public ContributionDelta copy(ContributionDelta from) {
    ContributionDelta c = new ContributionDelta();
    c.framework = from.framework;
    c.dimension = from.dimension;
    c.category = from.category;
    c.time = from.time;
    c.delta = from.delta;
    c.issueId = from.issueId;
    c.expected = from.expected;
    c.variance = from.variance;
    return c;
  }

  @Override
  public void serialize(ContributionDelta d, DataOutputView target) throws IOException {
    RecordStrings.write(d.framework, target);
    target.writeByte(d.dimension == null ? -1 : d.dimension.ordinal());
    RecordStrings.write(d.category, target);
    target.writeLong(d.time);
    target.writeInt(d.delta);
    RecordStrings.write(d.issueId, target);
    target.writeDouble(d.expected);
    target.writeDouble(d.variance);
  }

  @Override
  public ContributionDelta deserialize(DataInputView source) throws IOException {
    ContributionDelta d = new ContributionDelta();
    d.framework = RecordStrings.readShared(source);
    byte dimension = source.readByte();
    d.dimension = dimension < 0 ? null : DIMENSIONS[dimension];
    d.category = RecordStrings.readShared(source);
    d.time = source.readLong();
    d.delta = source.readInt();
    d.issueId = RecordStrings.read(source);
    d.expected = source.readDouble();
    d.variance = source.readDouble();
    return d;
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    RecordStrings.copy(source, target);
    target.writeByte(source.readByte());
    RecordStrings.copy(source, target);
    target.writeLong(source.readLong());
    target.writeInt(source.readInt());
    RecordStrings.copy(source, target);
    target.writeDouble(source.readDouble());
    target.writeDouble(source.readDouble());
  }

  @Override
  public TypeSerializerSnapshot<ContributionDelta> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's snapshot. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<ContributionDelta> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }

  /** Makes {@code TypeInformation.of(ContributionDelta.class)} name this serializer. */
  public static final class Factory extends TypeInfoFactory<ContributionDelta> {
    @Override
    public TypeInformation<ContributionDelta> createTypeInfo(
        Type t, Map<String, TypeInformation<?>> genericParameters) {
      return new SerializerTypeInfo<>(ContributionDelta.class, INSTANCE);
    }
  }
}
