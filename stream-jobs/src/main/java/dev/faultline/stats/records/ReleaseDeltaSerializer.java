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
 * Flink serializer of {@link ReleaseDelta} (to the release counts over the network, and copied into
 * the chained alert-count map; in no state). Fields in a fixed order, strings in one bulk write
 * each, the few-valued ones read as shared instances.
 */
public final class ReleaseDeltaSerializer extends NetworkRecordSerializer<ReleaseDelta> {
  private static final long serialVersionUID = 1L;

  public static final ReleaseDeltaSerializer INSTANCE = new ReleaseDeltaSerializer();

  private static final Dimension[] DIMENSIONS = Dimension.values();

  @Override
  public ReleaseDelta createInstance() {
    return new ReleaseDelta();
  }

  @Override
  public ReleaseDelta copy(ReleaseDelta from) {
    return new ReleaseDelta(
        from.framework, from.release, from.dimension, from.category, from.delta, from.time);
  }

  @Override
  public void serialize(ReleaseDelta r, DataOutputView target) throws IOException {
    RecordStrings.write(r.framework, target);
    RecordStrings.write(r.release, target);
    target.writeByte(r.dimension == null ? -1 : r.dimension.ordinal());
    RecordStrings.write(r.category, target);
    target.writeInt(r.delta);
    target.writeLong(r.time);
  }

  @Override
  public ReleaseDelta deserialize(DataInputView source) throws IOException {
    ReleaseDelta r = new ReleaseDelta();
    r.framework = RecordStrings.readShared(source);
    r.release = RecordStrings.readShared(source);
    byte dimension = source.readByte();
    r.dimension = dimension < 0 ? null : DIMENSIONS[dimension];
    r.category = RecordStrings.readShared(source);
    r.delta = source.readInt();
    r.time = source.readLong();
    return r;
  }

  @Override
  public TypeSerializerSnapshot<ReleaseDelta> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's snapshot. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<ReleaseDelta> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }

  /** Makes {@code TypeInformation.of(ReleaseDelta.class)} name this serializer. */
  public static final class Factory extends TypeInfoFactory<ReleaseDelta> {
    @Override
    public TypeInformation<ReleaseDelta> createTypeInfo(
        Type t, Map<String, TypeInformation<?>> genericParameters) {
      return new SerializerTypeInfo<>(ReleaseDelta.class, INSTANCE);
    }
  }
}
