package dev.faultline.stats.functions;

import dev.faultline.stats.records.ContributionDelta;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Gives each delta its own event time (when the issue entered the category) and forwards watermarks
 * untouched. A process function cannot set a record's timestamp, and a second watermark assigner
 * would replace the source's watermarks; this operator only restamps. Deltas dated before the
 * current watermark are then late for the daily window, as they should be.
 */
public final class DeltaEventTime extends AbstractStreamOperator<ContributionDelta>
    implements OneInputStreamOperator<ContributionDelta, ContributionDelta> {
  @Override
  public void processElement(StreamRecord<ContributionDelta> element) {
    output.collect(element.replace(element.getValue(), element.getValue().time));
  }
}
