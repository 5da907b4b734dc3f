package dev.faultline.stats.functions;

import dev.faultline.stats.records.ContributionDelta;
import java.util.List;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Sums the deltas of one key in one daily bucket. */
public final class DailyCountAggregate
    implements AggregateFunction<ContributionDelta, DailyAccumulator, DailyAccumulator> {
  @Override
  public DailyAccumulator createAccumulator() {
    return new DailyAccumulator();
  }

  @Override
  public DailyAccumulator add(ContributionDelta value, DailyAccumulator acc) {
    acc.add(value);
    return acc;
  }

  @Override
  public DailyAccumulator getResult(DailyAccumulator acc) {
    return acc;
  }

  @Override
  public DailyAccumulator merge(DailyAccumulator a, DailyAccumulator b) {
    DailyAccumulator m = new DailyAccumulator();
    m.count = a.count + b.count;
    m.expected = a.expected + b.expected;
    m.variance = a.variance + b.variance;
    m.examples = Examples.union(List.of(a.examples, b.examples), DailyAccumulator.MAX_EXAMPLES);
    return m;
  }
}
