package dev.faultline.ingest;

import dev.faultline.schemas.Delivery;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A fake {@link DeliveryPublisher} that records what it was given and answers as told. */
final class RecordingPublisher implements DeliveryPublisher {
  record Published(String key, Delivery delivery) {}

  private final List<Published> published = new CopyOnWriteArrayList<>();
  private volatile Function<Published, CompletableFuture<Void>> answer =
      p -> CompletableFuture.completedFuture(null);
  volatile boolean closed;

  /** Every publish answers with what {@code answer} returns. */
  RecordingPublisher answering(Function<Published, CompletableFuture<Void>> answer) {
    this.answer = answer;
    return this;
  }

  RecordingPublisher failing(RuntimeException error) {
    return answering(p -> CompletableFuture.failedFuture(error));
  }

  RecordingPublisher succeeding() {
    return answering(p -> CompletableFuture.completedFuture(null));
  }

  @Override
  public CompletableFuture<Void> publish(String key, Delivery delivery) {
    Published p = new Published(key, delivery);
    published.add(p);
    return answer.apply(p);
  }

  List<Published> published() {
    return new ArrayList<>(published);
  }

  List<String> deliveryIds() {
    return published.stream().map(p -> p.delivery().getDeliveryId()).toList();
  }

  @Override
  public void close() {
    closed = true;
  }
}
