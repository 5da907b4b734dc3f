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
 * Flink serializer of {@link ComboObservation} (copied into the chained alert-count map; in no
 * state). Fields in a fixed order, strings in one bulk write each, the few-valued ones read as
 * shared instances.
 */
public final class ComboObservationSerializer extends NetworkRecordSerializer<ComboObservation> {
  private static final long serialVersionUID = 1L;

  public static final ComboObservationSerializer INSTANCE = new ComboObservationSerializer();

  private static final Dimension[] DIMENSIONS = Dimension.values();

  @Override
  public ComboObservation createInstance() {
    return new ComboObservation();
  }

  @Override
  public ComboObservation copy(ComboObservation from) {
    return new ComboObservation(
        from.framework, from.dimension, from.category, from.stage, from.time, from.issueId);
  }

  @Override
  public void serialize(ComboObservation c, DataOutputView target) throws IOException {
    RecordStrings.write(c.framework, target);
    target.writeByte(c.dimension == null ? -1 : c.dimension.ordinal());
    RecordStrings.write(c.category, target);
    RecordStrings.write(c.stage, target);
    target.writeLong(c.time);
    RecordStrings.write(c.issueId, target);
  }

  @Override
  public ComboObservation deserialize(DataInputView source) throws IOException {
    ComboObservation c = new ComboObservation();
    c.framework = RecordStrings.readShared(source);
    byte dimension = source.readByte();
    c.dimension = dimension < 0 ? null : DIMENSIONS[dimension];
    c.category = RecordStrings.readShared(source);
    c.stage = RecordStrings.readShared(source);
    c.time = source.readLong();
    c.issueId = RecordStrings.read(source);
    return c;
  }

  @Override
  public TypeSerializerSnapshot<ComboObservation> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's snapshot. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<ComboObservation> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }

  /** Makes {@code TypeInformation.of(ComboObservation.class)} name this serializer. */
  public static final class Factory extends TypeInfoFactory<ComboObservation> {
    @Override
    public TypeInformation<ComboObservation> createTypeInfo(
        Type t, Map<String, TypeInformation<?>> genericParameters) {
      return new SerializerTypeInfo<>(ComboObservation.class, INSTANCE);
    }
  }
}
