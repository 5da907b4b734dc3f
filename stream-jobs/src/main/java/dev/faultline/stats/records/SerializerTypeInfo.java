package dev.faultline.stats.records;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information of a record class that has its own serializer (named by a {@code @TypeInfo}
 * factory on the class): Flink uses that serializer wherever the class is a stream's or a state's
 * type.
 */
public final class SerializerTypeInfo<T> extends TypeInformation<T> {
  private static final long serialVersionUID = 1L;

  private final Class<T> type;
  private final TypeSerializer<T> serializer;

  public SerializerTypeInfo(Class<T> type, TypeSerializer<T> serializer) {
    this.type = type;
    this.serializer = serializer;
  }

  @Override
  public boolean isBasicType() {
    return false;
  }

  @Override
  public boolean isTupleType() {
    return false;
  }

  @Override
  public int getArity() {
    return 1;
  }

  @Override
  public int getTotalFields() {
    return 1;
  }

  @Override
  public Class<T> getTypeClass() {
    return type;
  }

  @Override
  public boolean isKeyType() {
    return false;
  }

  @Override
  public TypeSerializer<T> createSerializer(SerializerConfig config) {
    return serializer;
  }

  @Override
  public String toString() {
    return type.getSimpleName() + "(" + serializer.getClass().getSimpleName() + ")";
  }

  @Override
  public boolean equals(Object obj) {
    return obj instanceof SerializerTypeInfo<?> o
        && o.type == type
        && o.serializer.equals(serializer);
  }

  @Override
  public int hashCode() {
    return type.hashCode();
  }

  @Override
  public boolean canEqual(Object obj) {
    return obj instanceof SerializerTypeInfo;
  }
}
