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
 * Flink serializer of {@link DayTable}, the rolling counter's state of one key: the whole table as
 * one block of bytes, written in a single call.
 *
 * <p>Why not the POJO serializer it replaced: that one writes every field through reflection and
 * every example id character by character ({@code StringValue.writeString}), and the heap backend's
 * checkpoint stream takes each byte through a synchronised {@code DataOutputStream.write(int)} and
 * two more calls; the tables were half of the job's asynchronous checkpoint (docs/performance.md).
 * Here the fields go into an in-memory buffer (strings as {@link RecordStrings} writes them) and
 * reach the stream as one array. Every field of {@link DayTable} and {@link DayState} is kept,
 * nulls included, so a value reads back equal field by field.
 *
 * <p>State written by the POJO serializer of an earlier build restores: its snapshot is taken as
 * compatible after migration (the backend reads the values with the old serializer and writes them
 * with this one).
 */
public final class DayTableSerializer extends TypeSerializerSingleton<DayTable> {
  private static final long serialVersionUID = 1L;

  public static final DayTableSerializer INSTANCE = new DayTableSerializer();

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public DayTable createInstance() {
    return new DayTable();
  }

  /** A deep copy: the rolling counter changes a table's arrays and day states in place. */
  @Override
  public DayTable copy(DayTable from) {
    DayTable c = new DayTable();
    c.days = from.days == null ? null : from.days.clone();
    c.writtenAt = from.writtenAt == null ? null : from.writtenAt.clone();
    c.dirty = from.dirty == null ? null : from.dirty.clone();
    if (from.states == null) {
      c.states = null;
    } else {
      c.states = new DayState[from.states.length];
      for (int i = 0; i < from.states.length; i++) {
        c.states[i] = from.states[i] == null ? null : copy(from.states[i]);
      }
    }
    return c;
  }

  private static DayState copy(DayState s) {
    DayState c = new DayState();
    c.windowCount = s.windowCount;
    c.lateCount = s.lateCount;
    c.pendingLate = s.pendingLate;
    c.windowExpected = s.windowExpected;
    c.windowVariance = s.windowVariance;
    c.lateExpected = s.lateExpected;
    c.lateVariance = s.lateVariance;
    c.pendingLateExpected = s.pendingLateExpected;
    c.pendingLateVariance = s.pendingLateVariance;
    c.windowExamples = s.windowExamples == null ? null : s.windowExamples.clone();
    c.lateExamples = s.lateExamples == null ? null : s.lateExamples.clone();
    return c;
  }

  @Override
  public DayTable copy(DayTable from, DayTable reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(DayTable t, DataOutputView target) throws IOException {
    int states = t.states == null ? 0 : t.states.length;
    DataOutputSerializer block = new DataOutputSerializer(64 + 120 * states);
    writeLongs(t.days, block);
    writeLongs(t.writtenAt, block);
    if (t.states == null) {
      block.writeInt(-1);
    } else {
      block.writeInt(t.states.length);
      for (DayState s : t.states) {
        write(s, block);
      }
    }
    writeLongs(t.dirty, block);
    target.writeInt(block.length());
    target.write(block.getSharedBuffer(), 0, block.length());
  }

  private static void write(DayState s, DataOutputSerializer out) throws IOException {
    if (s == null) {
      out.writeBoolean(false);
      return;
    }
    out.writeBoolean(true);
    out.writeLong(s.windowCount);
    out.writeLong(s.lateCount);
    out.writeLong(s.pendingLate);
    out.writeDouble(s.windowExpected);
    out.writeDouble(s.windowVariance);
    out.writeDouble(s.lateExpected);
    out.writeDouble(s.lateVariance);
    out.writeDouble(s.pendingLateExpected);
    out.writeDouble(s.pendingLateVariance);
    writeStrings(s.windowExamples, out);
    writeStrings(s.lateExamples, out);
  }

  private static void writeLongs(long[] a, DataOutputSerializer out) throws IOException {
    if (a == null) {
      out.writeInt(-1);
      return;
    }
    out.writeInt(a.length);
    for (long v : a) {
      out.writeLong(v);
    }
  }

  private static void writeStrings(String[] a, DataOutputSerializer out) throws IOException {
    if (a == null) {
      out.writeInt(-1);
      return;
    }
    out.writeInt(a.length);
    for (String s : a) {
      RecordStrings.write(s, out);
    }
  }

  @Override
  public DayTable deserialize(DataInputView source) throws IOException {
    byte[] bytes = new byte[source.readInt()];
    source.readFully(bytes);
    DataInputDeserializer in = new DataInputDeserializer(bytes);
    DayTable t = new DayTable();
    t.days = readLongs(in);
    t.writtenAt = readLongs(in);
    int n = in.readInt();
    if (n < 0) {
      t.states = null;
    } else {
      t.states = new DayState[n];
      for (int i = 0; i < n; i++) {
        t.states[i] = readState(in);
      }
    }
    t.dirty = readLongs(in);
    return t;
  }

  private static DayState readState(DataInputDeserializer in) throws IOException {
    if (!in.readBoolean()) {
      return null;
    }
    DayState s = new DayState();
    s.windowCount = in.readLong();
    s.lateCount = in.readLong();
    s.pendingLate = in.readLong();
    s.windowExpected = in.readDouble();
    s.windowVariance = in.readDouble();
    s.lateExpected = in.readDouble();
    s.lateVariance = in.readDouble();
    s.pendingLateExpected = in.readDouble();
    s.pendingLateVariance = in.readDouble();
    s.windowExamples = readStrings(in);
    s.lateExamples = readStrings(in);
    return s;
  }

  private static long[] readLongs(DataInputDeserializer in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      return null;
    }
    long[] a = new long[n];
    for (int i = 0; i < n; i++) {
      a[i] = in.readLong();
    }
    return a;
  }

  private static String[] readStrings(DataInputDeserializer in) throws IOException {
    int n = in.readInt();
    if (n < 0) {
      return null;
    }
    String[] a = new String[n];
    for (int i = 0; i < n; i++) {
      a[i] = RecordStrings.read(in);
    }
    return a;
  }

  @Override
  public DayTable deserialize(DayTable reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    byte[] block = new byte[source.readInt()];
    source.readFully(block);
    target.writeInt(block.length);
    target.write(block);
  }

  @Override
  public TypeSerializerSnapshot<DayTable> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's snapshot; takes the POJO serializer of earlier builds as migratable. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<DayTable> {
    public Snapshot() {
      super(() -> INSTANCE);
    }

    @Override
    public TypeSerializerSchemaCompatibility<DayTable> resolveSchemaCompatibility(
        TypeSerializerSnapshot<DayTable> old) {
      if (!(old instanceof Snapshot) && old.restoreSerializer() instanceof PojoSerializer) {
        return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
      }
      return super.resolveSchemaCompatibility(old);
    }
  }

  /** Makes {@code TypeInformation.of(DayTable.class)} a type information of this serializer. */
  public static final class Factory extends TypeInfoFactory<DayTable> {
    @Override
    public TypeInformation<DayTable> createTypeInfo(
        Type t, Map<String, TypeInformation<?>> genericParameters) {
      return new SerializerTypeInfo<>(DayTable.class, INSTANCE);
    }
  }
}
