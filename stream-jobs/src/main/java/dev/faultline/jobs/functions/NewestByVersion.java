package dev.faultline.jobs.functions;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed: forwards an element only when its version is newer than any seen for its key, so an
 * out-of-order or replayed older state never overwrites a newer one downstream, and an exact
 * redelivery is not written twice.
 */
public final class NewestByVersion<T> extends KeyedProcessFunction<String, T, T> {
  /** The version of an element, e.g. GitHub's {@code updated_at}. */
  public interface Version<T> extends KeySelector<T, Long> {}

  private final Version<T> version;
  private transient ValueState<Long> newest;

  public NewestByVersion(Version<T> version) {
    this.version = version;
  }

  @Override
  public void open(OpenContext openContext) {
    newest = getRuntimeContext().getState(new ValueStateDescriptor<>("newest-version", Long.class));
  }

  @Override
  public void processElement(T element, Context ctx, Collector<T> out) throws Exception {
    long v = version.getKey(element);
    Long seen = newest.value();
    if (seen != null && v <= seen) {
      return;
    }
    newest.update(v);
    out.collect(element);
  }
}
