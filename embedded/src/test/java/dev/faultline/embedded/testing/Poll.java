package dev.faultline.embedded.testing;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The tests' one way to wait: check a condition until it holds or a deadline passes, then fail with
 * what was awaited (never a fixed sleep). The first checks follow each other closely (10 ms,
 * doubling), later ones every 250 ms, so a quick condition costs little time and a slow one little
 * CPU. A checked exception thrown by a check fails the wait (an {@link AssertionError} with it as
 * the cause); an unchecked one passes through as it is. Published in embedded's test-jar (only this
 * package).
 */
public final class Poll {
  /** A condition to check; it may read a server and throw. */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  /** A value to read until it is the one awaited; it may read a server and throw. */
  @FunctionalInterface
  public interface Probe<T> {
    T read() throws Exception;
  }

  private static final long FIRST_PAUSE_MILLIS = 10;
  private static final long LONGEST_PAUSE_MILLIS = 250;

  private Poll() {}

  /** Returns once {@code condition} holds; fails with {@code what} after {@code timeout}. */
  public static void until(Duration timeout, String what, Condition condition) {
    until(timeout, () -> what, condition);
  }

  /** As {@link #until(Duration, String, Condition)}, the message worked out only on failure. */
  public static void until(Duration timeout, Supplier<String> what, Condition condition) {
    until(timeout, condition::holds, Boolean::booleanValue, ignored -> what.get());
  }

  /**
   * Reads {@code probe} until {@code done} accepts its value, and returns that value; fails after
   * {@code timeout} with {@code what} of the last value read.
   */
  public static <T> T until(
      Duration timeout,
      Probe<T> probe,
      Predicate<? super T> done,
      Function<? super T, String> what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = FIRST_PAUSE_MILLIS;
    while (true) {
      T value = read(probe);
      if (done.test(value)) {
        return value;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(
            "Timed out after "
                + timeout.toMillis() / 1000.0
                + " s waiting for: "
                + what.apply(value));
      }
      try {
        Thread.sleep(Math.min(pause, Math.max(1, left / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("Interrupted while waiting for: " + what.apply(value), e);
      }
      pause = Math.min(LONGEST_PAUSE_MILLIS, pause * 2);
    }
  }

  private static <T> T read(Probe<T> probe) {
    try {
      return probe.read();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new AssertionError("A check threw while waiting: " + e, e);
    }
  }
}
