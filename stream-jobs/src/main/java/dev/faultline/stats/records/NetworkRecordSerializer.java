package dev.faultline.stats.records;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The common part of the serializers of records that only cross the job's stages (network and
 * chained copies, in no state): a stateless singleton of a mutable type with no reuse, whose stream
 * copy reads one record and writes it again unless a subclass copies the fields as they stream.
 */
abstract class NetworkRecordSerializer<T> extends TypeSerializerSingleton<T> {
  private static final long serialVersionUID = 1L;

  @Override
  public final boolean isImmutableType() {
    return false;
  }

  @Override
  public final T copy(T from, T reuse) {
    return copy(from);
  }

  @Override
  public final int getLength() {
    return -1;
  }

  @Override
  public final T deserialize(T reuse, DataInputView source) throws IOException {
    return deserialize(source);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }
}
