package dev.faultline.jobs.functions;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.faultline.jobs.common.Rejected;
import dev.faultline.jobs.normalise.GitHubNormaliser;
import dev.faultline.jobs.normalise.PoisonRecordException;
import dev.faultline.jobs.records.GitHubEvent;
import dev.faultline.jobs.records.RawDelivery;
import dev.faultline.schemas.AvroCodec;
import dev.faultline.schemas.Delivery;
import java.io.IOException;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Decodes the Avro envelope and normalises the facts it carries; anything unreadable goes to the
 * dead-letter side output.
 */
public final class DecodeAndNormalise extends ProcessFunction<RawDelivery, GitHubEvent> {
  public static final String STAGE = "issue-pipeline/normalise";

  private final OutputTag<Rejected> rejected;
  private transient AvroCodec<Delivery> codec;
  private transient GitHubNormaliser normaliser;

  public DecodeAndNormalise(OutputTag<Rejected> rejected) {
    this.rejected = rejected;
  }

  @Override
  public void open(OpenContext openContext) {
    codec = AvroCodec.deliveries();
    normaliser = new GitHubNormaliser(new ObjectMapper());
  }

  @Override
  public void processElement(RawDelivery raw, Context ctx, Collector<GitHubEvent> out) {
    Delivery delivery;
    try {
      delivery = codec.decode(raw.value);
    } catch (IOException | RuntimeException e) {
      ctx.output(
          rejected,
          reject(
              raw,
              null,
              "not a Delivery record ("
                  + e.getClass().getSimpleName()
                  + ": "
                  + e.getMessage()
                  + ")"));
      return;
    }
    try {
      normaliser.normalise(delivery).forEach(out::collect);
    } catch (PoisonRecordException | RuntimeException e) {
      ctx.output(rejected, reject(raw, delivery.getDeliveryId(), e.getMessage()));
    }
  }

  private static Rejected reject(RawDelivery raw, String deliveryId, String reason) {
    return new Rejected(STAGE, reason, raw.key, deliveryId, raw.value, System.currentTimeMillis());
  }
}
