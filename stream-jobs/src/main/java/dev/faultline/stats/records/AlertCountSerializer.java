package dev.faultline.stats.records;

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
 * Flink serializer of {@link AlertCount}, the record the alert detector receives over the network
 * (one per labelled-count delta, category × stage pair and release report). Fields in a fixed
 * order, strings in one bulk write each ({@code RecordStrings}); Flink's POJO serializer it
 * replaced reached every field by reflection and wrote strings character by character. Not in any
 * state: only the network format changed.
 */
public final class AlertCountSerializer extends NetworkRecordSerializer<AlertCount> {
  private static final long serialVersionUID = 1L;

  public static final AlertCountSerializer INSTANCE = new AlertCountSerializer();

  @Override
  public AlertCount createInstance() {
    return new AlertCount();
  }

  @Override
  public AlertCount copy(AlertCount from) {
    AlertCount c = new AlertCount();
    c.framework = from.framework;
    c.key = from.key;
    c.release = from.release;
    c.time = from.time;
    c.delta = from.delta;
    c.issueId = from.issueId;
    return c;
  }

  @Override
  public void serialize(AlertCount c, DataOutputView target) throws IOException {
    RecordStrings.write(c.framework, target);
    RecordStrings.write(c.key, target);
    RecordStrings.write(c.release, target);
    target.writeLong(c.time);
    target.writeInt(c.delta);
    RecordStrings.write(c.issueId, target);
  }

  @Override
  public AlertCount deserialize(DataInputView source) throws IOException {
    AlertCount c = new AlertCount();
    c.framework = RecordStrings.readShared(source);
    c.key = RecordStrings.readShared(source);
    c.release = RecordStrings.readShared(source);
    c.time = source.readLong();
    c.delta = source.readInt();
    c.issueId = RecordStrings.read(source);
    return c;
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    RecordStrings.copy(source, target);
    RecordStrings.copy(source, target);
    RecordStrings.copy(source, target);
    target.writeLong(source.readLong());
    target.writeInt(source.readInt());
    RecordStrings.copy(source, target);
  }

  @Override
  public TypeSerializerSnapshot<AlertCount> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's snapshot. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<AlertCount> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }

  /** Makes {@code TypeInformation.of(AlertCount.class)} name this serializer. */
  public static final class Factory extends TypeInfoFactory<AlertCount> {
    @Override
    public TypeInformation<AlertCount> createTypeInfo(
        Type t, Map<String, TypeInformation<?>> genericParameters) {
      return new SerializerTypeInfo<>(AlertCount.class, INSTANCE);
    }
  }
}
