package dev.faultline.stats.records;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.GenericArraySerializer;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Flink serializer of an issue's history, the {@code ClassifiedEvent[]} the statistics job keeps
 * per issue (the issue-contributions operator's state): the whole array as one block of bytes,
 * written in a single call.
 *
 * <p>Why not the POJO array serializer it replaced: that one writes every string character by
 * character ({@code StringValue.writeString}) and the heap backend's checkpoint stream takes each
 * byte through a synchronised {@code DataOutputStream.write(int)} and two more calls; the histories
 * were most of the job's asynchronous checkpoint (docs/performance.md). Here the fields go into an
 * in-memory buffer (strings as modified UTF-8, as {@link java.io.DataOutput#writeUTF}) and reach
 * the stream as one array. Every field of {@link ClassifiedEvent} is kept, nulls included, so a
 * value reads back equal field by field.
 *
 * <p>State written by the POJO array serializer of an earlier build restores: its snapshot is taken
 * as compatible after migration (the backend reads the values with the old serializer and writes
 * them with this one).
 */
public final class IssueHistorySerializer extends TypeSerializerSingleton<ClassifiedEvent[]> {
  private static final long serialVersionUID = 1L;

  public static final IssueHistorySerializer INSTANCE = new IssueHistorySerializer();

  private static final ClassifiedEvent[] EMPTY = new ClassifiedEvent[0];

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public ClassifiedEvent[] createInstance() {
    return EMPTY;
  }

  @Override
  public ClassifiedEvent[] copy(ClassifiedEvent[] from) {
    ClassifiedEvent[] c = new ClassifiedEvent[from.length];
    for (int i = 0; i < from.length; i++) {
      c[i] = from[i] == null ? null : copy(from[i]);
    }
    return c;
  }

  private static ClassifiedEvent copy(ClassifiedEvent e) {
    ClassifiedEvent c = new ClassifiedEvent();
    c.id = e.id;
    c.framework = e.framework;
    c.frameworkVersion = e.frameworkVersion;
    c.state = e.state;
    c.createdAt = e.createdAt;
    c.updatedAt = e.updatedAt;
    c.categories = e.categories == null ? null : e.categories.clone();
    if (e.probabilities == null) {
      c.probabilities = null;
    } else {
      c.probabilities = new double[e.probabilities.length][];
      for (int d = 0; d < e.probabilities.length; d++) {
        double[] p = e.probabilities[d];
        c.probabilities[d] = p == null ? null : p.clone();
      }
    }
    c.bug = e.bug;
    return c;
  }

  @Override
  public ClassifiedEvent[] copy(ClassifiedEvent[] from, ClassifiedEvent[] reuse) {
    return copy(from);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(ClassifiedEvent[] history, DataOutputView target) throws IOException {
    DataOutputSerializer block = new DataOutputSerializer(64 + 160 * history.length);
    block.writeInt(history.length);
    for (ClassifiedEvent e : history) {
      block.writeBoolean(e != null);
      if (e != null) {
        write(e, block);
      }
    }
    target.writeInt(block.length());
    target.write(block.getSharedBuffer(), 0, block.length());
  }

  private static void write(ClassifiedEvent e, DataOutputSerializer out) throws IOException {
    RecordStrings.write(e.id, out);
    RecordStrings.write(e.framework, out);
    RecordStrings.write(e.frameworkVersion, out);
    RecordStrings.write(e.state, out);
    out.writeLong(e.createdAt);
    out.writeLong(e.updatedAt);
    out.writeInt(e.categories == null ? -1 : e.categories.length);
    if (e.categories != null) {
      for (String c : e.categories) {
        RecordStrings.write(c, out);
      }
    }
    out.writeInt(e.probabilities == null ? -1 : e.probabilities.length);
    if (e.probabilities != null) {
      for (double[] p : e.probabilities) {
        out.writeInt(p == null ? -1 : p.length);
        if (p != null) {
          for (double v : p) {
            out.writeDouble(v);
          }
        }
      }
    }
    out.writeDouble(e.bug);
  }

  @Override
  public ClassifiedEvent[] deserialize(DataInputView source) throws IOException {
    byte[] bytes = new byte[source.readInt()];
    source.readFully(bytes);
    DataInputDeserializer in = new DataInputDeserializer(bytes);
    ClassifiedEvent[] history = new ClassifiedEvent[in.readInt()];
    for (int i = 0; i < history.length; i++) {
      history[i] = in.readBoolean() ? read(in) : null;
    }
    return history;
  }

  private static ClassifiedEvent read(DataInputDeserializer in) throws IOException {
    ClassifiedEvent e = new ClassifiedEvent();
    e.id = RecordStrings.read(in);
    e.framework = RecordStrings.read(in);
    e.frameworkVersion = RecordStrings.read(in);
    e.state = RecordStrings.read(in);
    e.createdAt = in.readLong();
    e.updatedAt = in.readLong();
    int n = in.readInt();
    e.categories = n < 0 ? null : new String[n];
    for (int k = 0; k < n; k++) {
      e.categories[k] = RecordStrings.read(in);
    }
    n = in.readInt();
    e.probabilities = n < 0 ? null : new double[n][];
    for (int d = 0; d < n; d++) {
      int m = in.readInt();
      if (m >= 0) {
        double[] p = new double[m];
        for (int k = 0; k < m; k++) {
          p[k] = in.readDouble();
        }
        e.probabilities[d] = p;
      }
    }
    e.bug = in.readDouble();
    return e;
  }

  @Override
  public ClassifiedEvent[] deserialize(ClassifiedEvent[] reuse, DataInputView source)
      throws IOException {
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
  public TypeSerializerSnapshot<ClassifiedEvent[]> snapshotConfiguration() {
    return new Snapshot();
  }

  /** The serializer's snapshot; takes the POJO array serializer of earlier builds as migratable. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<ClassifiedEvent[]> {
    public Snapshot() {
      super(() -> INSTANCE);
    }

    @Override
    public TypeSerializerSchemaCompatibility<ClassifiedEvent[]> resolveSchemaCompatibility(
        TypeSerializerSnapshot<ClassifiedEvent[]> old) {
      if (!(old instanceof Snapshot)
          && old.restoreSerializer() instanceof GenericArraySerializer<?> array
          && array.getComponentClass() == ClassifiedEvent.class
          && array.getComponentSerializer() instanceof PojoSerializer) {
        return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
      }
      return super.resolveSchemaCompatibility(old);
    }
  }
}
