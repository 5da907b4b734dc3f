package dev.faultline.stats.records;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of {@link DailyExamples}: the first day, the number of days, then all the days'
 * ids as one block of bytes written in a single call.
 *
 * <p>Why not the POJO serializer it replaced: that one writes every id character by character
 * ({@code StringValue.writeString}), and the heap backend's checkpoint stream takes each byte
 * through a synchronised {@code DataOutputStream.write(int)} and two more calls; with up to 20 ids
 * a key and day over a year of days, that was the largest part of the statistics job's asynchronous
 * checkpoint (docs/performance.md). Here the ids go into an in-memory buffer (modified UTF-8, as
 * {@link java.io.DataOutput#writeUTF}) and reach the stream as one array.
 *
 * <p>State written by the POJO serializer of an earlier build restores: its snapshot is taken as
 * compatible after migration (the backend reads the values with the old serializer and writes them
 * with this one).
 */
public final class DailyExamplesSerializer extends TypeSerializerSingleton<DailyExamples> {
  private static final long serialVersionUID = 1L;

  public static final DailyExamplesSerializer INSTANCE = new DailyExamplesSerializer();

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public DailyExamples createInstance() {
    return new DailyExamples();
  }

  @Override
  public DailyExamples copy(DailyExamples from) {
    DailyExamples c = new DailyExamples();
    c.firstDay = from.firstDay;
    c.ids = new String[from.ids.length][];
    for (int i = 0; i < from.ids.length; i++) {
      c.ids[i] = from.ids[i] == null ? null : from.ids[i].clone();
    }
    return c;
  }

  @Override
  public DailyExamples copy(DailyExamples from, DailyExamples reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(DailyExamples record, DataOutputView target) throws IOException {
    String[][] ids = record.ids;
    int days = ids.length;
    while (days > 0 && ids[days - 1] == null) {
      days--; // the room ahead for days to come holds nothing
    }
    DataOutputSerializer block = new DataOutputSerializer(64 + 16 * days);
    for (int i = 0; i < days; i++) {
      String[] day = ids[i];
      block.writeInt(day == null ? -1 : day.length);
      if (day != null) {
        for (String id : day) {
          block.writeUTF(id);
        }
      }
    }
    target.writeLong(record.firstDay);
    target.writeInt(days);
    target.writeInt(block.length());
    target.write(block.getSharedBuffer(), 0, block.length());
  }

  @Override
  public DailyExamples deserialize(DataInputView source) throws IOException {
    DailyExamples x = new DailyExamples();
    x.firstDay = source.readLong();
    int days = source.readInt();
    byte[] bytes = new byte[source.readInt()];
    source.readFully(bytes);
    DataInputDeserializer block = new DataInputDeserializer(bytes);
    x.ids = new String[days][];
    for (int i = 0; i < days; i++) {
      int n = block.readInt();
      if (n >= 0) {
        String[] day = new String[n];
        for (int k = 0; k < n; k++) {
          day[k] = block.readUTF();
        }
        x.ids[i] = day;
      }
    }
    return x;
  }

  @Override
  public DailyExamples deserialize(DailyExamples reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    target.writeLong(source.readLong());
    target.writeInt(source.readInt());
    byte[] block = new byte[source.readInt()];
    source.readFully(block);
    target.writeInt(block.length);
    target.write(block);
  }

  @Override
  public TypeSerializerSnapshot<DailyExamples> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's snapshot; takes the POJO serializer of earlier builds as migratable. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<DailyExamples> {
    public Snapshot() {
      super(() -> INSTANCE);
    }

    @Override
    public TypeSerializerSchemaCompatibility<DailyExamples> resolveSchemaCompatibility(
        TypeSerializerSnapshot<DailyExamples> old) {
      if (!(old instanceof Snapshot) && old.restoreSerializer() instanceof PojoSerializer) {
        return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
      }
      return super.resolveSchemaCompatibility(old);
    }
  }

  /**
   * Makes {@code TypeInformation.of(DailyExamples.class)} a type information of this serializer.
   */
  public static final class Factory extends TypeInfoFactory<DailyExamples> {
    @Override
    public TypeInformation<DailyExamples> createTypeInfo(
        Type t, Map<String, TypeInformation<?>> genericParameters) {
      return new SerializerTypeInfo<>(DailyExamples.class, INSTANCE);
    }
  }
}
