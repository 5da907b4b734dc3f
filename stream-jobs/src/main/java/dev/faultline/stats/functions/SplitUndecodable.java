package dev.faultline.stats.functions;

import dev.faultline.jobs.common.Rejected;
import dev.faultline.stats.records.ClassifiedEvent;
import dev.faultline.stats.records.ClassifiedRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Decoded events go on, records that did not decode go to the {@link #UNDECODABLE} side output
 * (dead letters).
 */
public final class SplitUndecodable extends ProcessFunction<ClassifiedRecord, ClassifiedEvent> {
  public static final OutputTag<Rejected> UNDECODABLE =
      new OutputTag<>("undecodable-classified", TypeInformation.of(Rejected.class));

  @Override
  public void processElement(ClassifiedRecord r, Context ctx, Collector<ClassifiedEvent> out) {
    if (r.event != null) {
      out.collect(r.event);
    } else if (r.rejected != null) {
      ctx.output(UNDECODABLE, r.rejected);
    }
  }
}
