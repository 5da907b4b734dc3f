package dev.faultline.dashboard;

/**
 * The encoder the pipeline stores each issue's text vector with ({@code Issue.textVector}; in the
 * local stack all-MiniLM-L6-v2 through the classifier's {@code MiniLmEmbedder}). A report pasted
 * into "find issues like this" is encoded by the same encoder, so its vector is comparable with the
 * stored ones; without an encoder the search goes by words alone.
 */
@FunctionalInterface
public interface TextEncoder {
  /** The vector of a text, as the pipeline computes it for an issue's title and body. */
  float[] encode(String text);
}
