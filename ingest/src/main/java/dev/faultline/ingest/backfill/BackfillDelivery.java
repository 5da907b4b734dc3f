package dev.faultline.ingest.backfill;

import dev.faultline.schemas.Delivery;

/**
 * One historical event as a delivery, with its Kafka key, ready for the same topic as live
 * deliveries.
 */
public record BackfillDelivery(String key, Delivery delivery) {}
