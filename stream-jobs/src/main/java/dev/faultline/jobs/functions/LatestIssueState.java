package dev.faultline.jobs.functions;

import dev.faultline.jobs.records.IssueEvent;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Keyed by issue id: forwards an event only when it is not older than the newest state seen (GitHub's {@code
 * updated_at}), so an out-of-order or replayed older event never overwrites a newer one downstream.
 */
public final class LatestIssueState extends KeyedProcessFunction<String, IssueEvent, IssueEvent> {
  private transient ValueState<Long> newestUpdatedAt;

  @Override
  public void open(OpenContext openContext) {
    newestUpdatedAt = getRuntimeContext().getState(new ValueStateDescriptor<>("newest-updated-at", Long.class));
  }

  @Override
  public void processElement(IssueEvent event, Context ctx, Collector<IssueEvent> out) throws Exception {
    Long newest = newestUpdatedAt.value();
    if (newest != null && event.updatedAt < newest) {
      return;
    }
    newestUpdatedAt.update(event.updatedAt);
    out.collect(event);
  }
}
