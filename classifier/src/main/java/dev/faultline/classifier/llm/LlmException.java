package dev.faultline.classifier.llm;

/**
 * A request to the model that gave no usable reply; the message is the reason recorded with the
 * fallback label.
 */
public final class LlmException extends Exception {

  private final boolean endpointFault;

  /** A failure of the endpoint (counts toward the circuit breaker). */
  public LlmException(String reason) {
    this(reason, true);
  }

  /**
   * @param endpointFault false when the request was refused here (budget), which says nothing of
   *     the endpoint
   */
  public LlmException(String reason, boolean endpointFault) {
    super(reason);
    this.endpointFault = endpointFault;
  }

  /** Whether the endpoint failed, rather than the request being refused before it was sent. */
  public boolean endpointFault() {
    return endpointFault;
  }
}
