package dev.faultline.jobs.normalise;

/**
 * A record that can never be processed (undecodable, not JSON, required field missing): it goes to
 * the dead-letter topic.
 */
public final class PoisonRecordException extends Exception {
  public PoisonRecordException(String message) {
    super(message);
  }

  public PoisonRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
