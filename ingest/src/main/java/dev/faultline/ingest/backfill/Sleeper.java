package dev.faultline.ingest.backfill;

import java.time.Duration;

/** Waits; injectable so tests of rate-limit handling need not wait for real. */
@FunctionalInterface
public interface Sleeper {
  void sleep(Duration duration) throws InterruptedException;

  Sleeper SYSTEM = d -> Thread.sleep(Math.max(0, d.toMillis()));
}
