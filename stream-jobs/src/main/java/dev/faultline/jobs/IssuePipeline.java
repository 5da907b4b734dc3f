package dev.faultline.jobs;

import dev.faultline.classifier.Frameworks;
import dev.faultline.graph.IssueRow;
import dev.faultline.jobs.functions.DecodeAndNormalise;
import dev.faultline.jobs.functions.LatestIssueState;
import dev.faultline.jobs.records.IssueEvent;
import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.jobs.records.Rejected;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.util.OutputTag;

/**
 * The issue pipeline as a function of streams: raw deliveries in, graph rows and dead letters out. Sources and sinks
 * are attached by {@link IssuePipelineJob}; tests attach their own.
 */
public final class IssuePipeline {
  /** Side output of records the pipeline could not read. */
  public static final OutputTag<Rejected> REJECTED = new OutputTag<>("rejected", TypeInformation.of(Rejected.class));

  /** Streams the pipeline produces. */
  public record Outputs(DataStream<IssueRow> issues, DataStream<Rejected> rejected) {}

  private IssuePipeline() {}

  public static Outputs apply(DataStream<RawDelivery> deliveries) {
    SingleOutputStreamOperator<IssueEvent> events =
        deliveries.process(new DecodeAndNormalise(REJECTED)).uid("normalise").name("decode and normalise");
    DataStream<IssueRow> rows =
        events
            // All events of one issue meet in one task: newest-wins state and, later, re-classification.
            .keyBy(e -> e.id)
            .process(new LatestIssueState())
            .uid("latest-issue-state")
            .name("latest issue state")
            .map(IssuePipeline::toRow)
            .uid("to-graph-row")
            .name("to graph row");
    return new Outputs(rows, events.getSideOutput(REJECTED));
  }

  static IssueRow toRow(IssueEvent e) {
    String framework = new Frameworks().ofRepo(e.repo).orElse(e.repo);
    return new IssueRow(
        e.id, e.repo, framework, e.number, e.title, e.body, e.state, e.url, e.author, List.copyOf(e.labels), e.createdAt, e.updatedAt, e.closedAt);
  }
}
